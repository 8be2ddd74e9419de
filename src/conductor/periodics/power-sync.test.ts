/** Power sync and disable_power_off: with force_power_state_during_sync such a node is never forced (Ironic's do_sync_power_state). */
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeIn, startTestConductor, type TestConductor } from '../conductor.test-support.js';
import { syncPowerStatesOnce } from './power-sync.js';

let t: TestConductor | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('power sync with force_power_state_during_sync', () => {
  it('never forces a node with disable_power_off in either direction: the record follows the hardware, and the history says why', async () => {
    t = await startTestConductor({ force_power_state_during_sync: true });
    for (const [name, recorded, actual] of [['dpo-on', 'power on', 'power off'], ['dpo-off', 'power off', 'power on']] as const) {
      const n = await createNodeIn(t, name, 'available');
      await t.store.nodes.update(n.uuid, { disable_power_off: true, power_state: recorded, driver_internal_info: { ...n.driver_internal_info, fake_power_state: actual } });
    }
    const plain = await createNodeIn(t, 'plain', 'available');
    await t.store.nodes.update(plain.uuid, { power_state: 'power on', driver_internal_info: { ...plain.driver_internal_info, fake_power_state: 'power off' } });

    const changed = await syncPowerStatesOnce(t.conductor.context);
    expect(changed.sort()).toEqual([(await t.store.nodes.get('dpo-on')).uuid, (await t.store.nodes.get('dpo-off')).uuid].sort());
    for (const [name, recorded, actual] of [['dpo-on', 'power on', 'power off'], ['dpo-off', 'power off', 'power on']] as const) {
      const n = await t.store.nodes.get(name);
      expect(n, name).toMatchObject({ power_state: actual, driver_internal_info: expect.objectContaining({ fake_power_state: actual }) });
      expect((await t.store.history.list(n.id, { limit: 100 })).at(-1), name).toMatchObject({
        event_type: 'power',
        severity: 'WARNING',
        event: `power state mismatch: Ingot recorded ${recorded}, the hardware says ${actual}; record updated (not forced back: disable_power_off is set)`,
      });
    }
    // A node without the flag is still set back on the hardware.
    expect(await t.store.nodes.get('plain')).toMatchObject({ power_state: 'power on', driver_internal_info: expect.objectContaining({ fake_power_state: 'power on' }) });
  });
});
