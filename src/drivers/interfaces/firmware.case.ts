/** Conformance suite of {@link FirmwareInterface}. */
import { describe, expect, it } from 'vitest';
import { commonShape, sampleTask } from './sample-task.test-support.js';
import type { FirmwareInterface } from './firmware.js';

export function firmwareConformance(label: string, make: () => FirmwareInterface): void {
  describe(`firmware interface conformance: ${label}`, () => {
    it('has a name and documented properties', () => expect(commonShape(make())).toEqual([]));
    it('updates and caches components', async () => {
      const f = make();
      const task = sampleTask();
      await f.validate(task);
      await f.update(task, [{ component: 'bios', url: 'http://example.invalid/fw.bin' }]);
      await f.cacheFirmwareComponents(task);
    });
  });
}
