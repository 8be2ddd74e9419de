/** Conformance suite of {@link InspectInterface}. */
import { describe, expect, it } from 'vitest';
import { commonShape, sampleTask } from './sample-task.test-support.js';
import type { InspectInterface } from './inspect.js';

export function inspectConformance(label: string, make: () => InspectInterface): void {
  describe(`inspect interface conformance: ${label}`, () => {
    it('has a name and documented properties', () => expect(commonShape(make())).toEqual([]));
    it('inspects to done or wait', async () => {
      const task = sampleTask({ provision_state: 'inspecting' });
      await make().validate(task);
      expect(['done', 'wait']).toContain(await make().inspectHardware(task));
    });
  });
}
