/** Conformance suite of {@link NetworkInterface}. */
import { describe, expect, it } from 'vitest';
import { commonShape, sampleTask } from './sample-task.test-support.js';
import type { NetworkInterface } from './network.js';

export function networkConformance(label: string, make: () => NetworkInterface): void {
  describe(`network interface conformance: ${label}`, () => {
    it('has a name and documented properties', () => expect(commonShape(make())).toEqual([]));
    it('validates and moves between networks', async () => {
      const n = make();
      const task = sampleTask();
      await n.validate(task);
      await n.addProvisioningNetwork(task);
      await n.removeProvisioningNetwork(task);
      await n.configureTenantNetworks(task);
      await n.unconfigureTenantNetworks(task);
      expect(task.node.provision_state).toBe('manageable');
    });
  });
}
