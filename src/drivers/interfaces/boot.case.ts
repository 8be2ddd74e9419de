/** Conformance suite of {@link BootInterface}. */
import { describe, expect, it } from 'vitest';
import type { BootInterface } from './boot.js';
import { commonShape, sampleTask } from './sample-task.test-support.js';

export function bootConformance(label: string, make: () => BootInterface): void {
  describe(`boot interface conformance: ${label}`, () => {
    it('has a name and documented properties', () => expect(commonShape(make())).toEqual([]));
    it('prepares and cleans up ramdisk and instance without changing the provision state', async () => {
      const b = make();
      const task = sampleTask();
      await b.validate(task);
      await b.prepareRamdisk(task, 'deploy');
      await b.cleanUpRamdisk(task, 'deploy');
      await b.prepareInstance(task);
      await b.cleanUpInstance(task);
      expect(task.node.provision_state).toBe('manageable');
    });
  });
}
