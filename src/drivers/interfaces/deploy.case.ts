/** Conformance suite of {@link DeployInterface}. */
import { describe, expect, it } from 'vitest';
import { commonShape, sampleTask } from './sample-task.test-support.js';
import type { DeployInterface } from './deploy.js';

export function deployConformance(label: string, make: () => DeployInterface): void {
  describe(`deploy interface conformance: ${label}`, () => {
    it('has a name and documented properties', () => expect(commonShape(make())).toEqual([]));
    it('deploys (done or wait) and tears down', async () => {
      const d = make();
      const task = sampleTask({ provision_state: 'deploying' });
      await d.validate(task);
      await d.prepare(task);
      expect(['done', 'wait']).toContain(await d.deploy(task));
      await d.tearDown(task);
      await d.cleanUp(task);
      await d.takeOver(task);
    });
    it('prepares and tears down cleaning', async () => {
      const d = make();
      const task = sampleTask({ provision_state: 'cleaning' });
      expect(['done', 'wait']).toContain(await d.prepareCleaning(task, []));
      await d.tearDownCleaning(task);
    });
    it('offers steps as functions', () => {
      for (const fn of Object.values(make().steps ?? {})) expect(typeof fn).toBe('function');
    });
  });
}
