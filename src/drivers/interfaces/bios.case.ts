/** Conformance suite of {@link BiosInterface}. */
import { describe, expect, it } from 'vitest';
import type { BiosInterface } from './bios.js';
import { commonShape, sampleTask } from './sample-task.test-support.js';

export function biosConformance(label: string, make: () => BiosInterface): void {
  describe(`bios interface conformance: ${label}`, () => {
    it('has a name and documented properties', () => expect(commonShape(make())).toEqual([]));
    it('applies settings, caches and resets', async () => {
      const b = make();
      const task = sampleTask();
      await b.validate(task);
      await b.applyConfiguration(task, [{ name: 'ProcVirtualization', value: 'Enabled' }]);
      await b.cacheBiosSettings(task);
      await b.factoryReset(task);
    });
    it('exposes apply_configuration and factory_reset as steps', () => {
      expect(Object.keys(make().steps ?? {})).toEqual(expect.arrayContaining(['apply_configuration', 'factory_reset']));
    });
  });
}
