/** Conformance suite of {@link StorageInterface}. */
import { describe, expect, it } from 'vitest';
import { commonShape, sampleTask } from './sample-task.test-support.js';
import type { StorageInterface } from './storage.js';

export function storageConformance(label: string, make: () => StorageInterface): void {
  describe(`storage interface conformance: ${label}`, () => {
    it('has a name and documented properties', () => expect(commonShape(make())).toEqual([]));
    it('attaches and detaches volumes and says whether to write an image', async () => {
      const s = make();
      const task = sampleTask();
      await s.validate(task);
      await s.attachVolumes(task);
      await s.detachVolumes(task);
      expect(typeof s.shouldWriteImage(task)).toBe('boolean');
    });
  });
}
