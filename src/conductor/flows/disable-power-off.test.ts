/**
 * Provision flows on a node with disable_power_off, end to end on fake-hardware: the machine is never
 * powered off; cleaning ends with a reboot, deployment boots the instance with a reboot, and the
 * tear-down reboots once the instance is gone (Ironic's tear_down_inband_cleaning, boot_instance and
 * deploy clean_up). A node without the flag keeps powering off and on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fakePower } from '../../drivers/fake/power.js';
import { HARDWARE_TYPES } from '../../drivers/hardware-types.js';
import { IMPLEMENTATIONS } from '../../drivers/implementations.js';
import type { PowerInterface } from '../../drivers/interfaces/power.js';
import { createDriverRegistry } from '../../drivers/registry.js';
import { createNodeIn, startTestConductor, waitForState, type TestConductor } from '../conductor.test-support.js';

let t: TestConductor | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** Fake power that logs every change asked of it, per node name. */
function loggingPower(log: Map<string, string[]>): PowerInterface {
  const p = fakePower();
  const note = (name: string | null, what: string) => {
    const key = name ?? '?';
    log.set(key, [...(log.get(key) ?? []), what]);
  };
  return {
    ...p,
    async setPowerState(task, state, timeout) {
      note(task.node.name, state);
      return p.setPowerState(task, state, timeout);
    },
    async reboot(task, soft, timeout) {
      note(task.node.name, soft ? 'soft reboot' : 'reboot');
      return p.reboot(task, soft, timeout);
    },
  };
}

async function conductorLogging(): Promise<{ t: TestConductor; log: Map<string, string[]> }> {
  const log = new Map<string, string[]>();
  const impls = { ...IMPLEMENTATIONS, power: { ...IMPLEMENTATIONS.power, fake: () => loggingPower(log) } };
  return { t: await startTestConductor({}, { registry: createDriverRegistry(['fake-hardware'], HARDWARE_TYPES, impls) }), log };
}

describe('provision flows and disable_power_off', () => {
  it('provide, deploy and undeploy never power the machine off; each power-off becomes a reboot or is skipped', async () => {
    const started = await conductorLogging();
    t = started.t;
    const { log } = started;
    const c = t.conductor.client;
    for (const [name, disabled] of [['kept', true], ['plain', false]] as const) {
      const n = await createNodeIn(t, name, 'manageable');
      await c.updateNode(name, { disable_power_off: disabled });
      log.set(name, []);
      await c.doProvisionAction(n.uuid, 'provide', {});
      await waitForState(t.store, name, 'available');
      await c.doProvisionAction(n.uuid, 'active', {});
      await waitForState(t.store, name, 'active');
      await c.doProvisionAction(n.uuid, 'deleted', {});
      await waitForState(t.store, name, 'available');
    }
    expect(log.get('kept')).toEqual(['reboot', 'reboot', 'reboot', 'reboot']);
    expect(log.get('plain')).toEqual(['power off', 'power on', 'power off', 'power off']);
    const kept = await t.store.nodes.get('kept');
    expect(kept).toMatchObject({ power_state: 'power on', last_error: null, maintenance: false });
    const events = (await t.store.history.list(kept.id, { limit: 1000 })).filter((e) => e.event_type === 'power').map((e) => e.event);
    // Verification left it off (the fake BMC's default): the first reboot powers it on.
    expect(events).toEqual([
      'power off -> power on',
      'rebooted instead of powered off at the end of cleaning: disable_power_off is set, Ingot never powers this machine off',
      'not powered off for the tear-down: disable_power_off is set, Ingot never powers this machine off',
      'rebooted instead of powered off at the end of cleaning: disable_power_off is set, Ingot never powers this machine off',
    ]);
  });
});
