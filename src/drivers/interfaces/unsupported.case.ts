/** Conformance for `no-*` implementations: validate and operations refuse with UnsupportedDriverExtension. */
import { describe, expect, it } from 'vitest';
import type { DriverInterface, DriverTask } from './base.js';
import { commonShape, sampleTask } from './sample-task.test-support.js';

export function unsupportedConformance<T extends DriverInterface>(label: string, make: () => T, operations: Array<(impl: T, task: DriverTask) => Promise<unknown>>): void {
  describe(`unsupported interface conformance: ${label}`, () => {
    it('has a name and no properties', () => {
      expect(commonShape(make())).toEqual([]);
      expect(make().name).toMatch(/^no-/);
    });
    it('fails validate with UnsupportedDriverExtension naming the driver', async () => {
      const run = async () => make().validate(sampleTask());
      await expect(run()).rejects.toMatchObject({ code: 'UnsupportedDriverExtension', message: expect.stringContaining('fake-hardware') });
    });
    it('refuses its operations', async () => {
      for (const op of operations) await expect(op(make(), sampleTask())).rejects.toMatchObject({ code: 'UnsupportedDriverExtension' });
    });
  });
}
