/** Conformance suite of {@link PowerInterface}: run it from every implementation's test. */
import { describe, expect, it } from 'vitest';
import type { Node } from '../../domain/node.js';
import { commonShape, sampleTask } from './sample-task.test-support.js';
import type { PowerInterface } from './power.js';

export function powerConformance(label: string, make: () => PowerInterface, nodeFields: Partial<Node> = {}): void {
  describe(`power interface conformance: ${label}`, () => {
    it('has a name and documented properties', () => expect(commonShape(make())).toEqual([]));
    it('validates a configured node', async () => {
      await expect(Promise.resolve(make().validate(sampleTask(nodeFields)))).resolves.toBeUndefined();
    });
    it('supports at least power on and power off', async () => {
      const states = await make().getSupportedPowerStates(sampleTask(nodeFields));
      expect(states).toEqual(expect.arrayContaining(['power on', 'power off']));
    });
    it('reads back what it set, and a reboot ends powered on', async () => {
      const p = make();
      const task = sampleTask(nodeFields);
      await p.setPowerState(task, 'power on');
      expect(await p.getPowerState(task)).toBe('power on');
      await p.setPowerState(task, 'power off');
      expect(await p.getPowerState(task)).toBe('power off');
      await p.reboot(task, false);
      expect(await p.getPowerState(task)).toBe('power on');
    });
  });
}
