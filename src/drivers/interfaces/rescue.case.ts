/** Conformance suite of {@link RescueInterface}. */
import { describe, expect, it } from 'vitest';
import { commonShape, sampleTask } from './sample-task.test-support.js';
import type { RescueInterface } from './rescue.js';

export function rescueConformance(label: string, make: () => RescueInterface): void {
  describe(`rescue interface conformance: ${label}`, () => {
    it('has a name and documented properties', () => expect(commonShape(make())).toEqual([]));
    it('rescues (done or wait) and unrescues', async () => {
      const r = make();
      const task = sampleTask({ provision_state: 'rescuing', instance_info: { rescue_password: 'pw' } });
      await r.validate(task);
      expect(['done', 'wait']).toContain(await r.rescue(task));
      await r.unrescue(task);
    });
  });
}
