/**
 * Power for nodes with disable_power_off: the power verb refuses power off under the lock, and the
 * helpers the flows end with reboot or leave the machine on instead of powering it off.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Node } from '../../domain/node.js';
import { Task } from '../task.js';
import { createNodeIn, startTestConductor, waitForNode, waitForState, type TestConductor } from '../conductor.test-support.js';
import { powerOffOrReboot, powerOffUnlessDisabled, powerOnOrReboot, rebootIfKeptOn } from '../../drivers/power-actions.js';

let t: TestConductor | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A fake-hardware node in enroll, powered `power` (as recorded and on the fake BMC), with disable_power_off `disabled`. */
async function node(name: string, disabled: boolean, power: 'power on' | 'power off' = 'power on'): Promise<Node> {
  t ??= await startTestConductor();
  const n = await t.conductor.client.createNode({ driver: 'fake-hardware', name });
  return t.store.nodes.update(n.uuid, {
    disable_power_off: disabled, power_state: power, driver_internal_info: { fake_power_state: power },
  });
}

/** What the fake BMC says, and the node's power history. */
async function observed(n: Node): Promise<{ hardware: unknown; power_state: unknown; events: string[] }> {
  const stored = await t!.store.nodes.get(n.uuid);
  const events = (await t!.store.history.list(n.id, { limit: 100 })).filter((e) => e.event_type === 'power').map((e) => e.event);
  return { hardware: stored.driver_internal_info['fake_power_state'], power_state: stored.power_state, events };
}

/** Runs `fn` in an exclusive task on `n` with a live signal. */
async function inTask<T>(n: Node, fn: (task: Task, signal: AbortSignal) => Promise<T>): Promise<T> {
  const task = await Task.acquire(t!.conductor.context, n.uuid);
  try {
    return await fn(task, new AbortController().signal);
  } finally {
    await task.release();
  }
}

describe('power verb on a node with disable_power_off', () => {
  it('refuses power off and soft power off under the lock, without touching the machine or the node', async () => {
    const n = await node('dpo-verb', true);
    for (const target of ['power off', 'soft power off'] as const) {
      await expect(t!.conductor.client.setPowerState(n.uuid, target)).rejects.toMatchObject({
        code: 'InvalidState', status: 409, message: expect.stringContaining(`Failed to set node power state to ${target}: node ${n.uuid} has disable_power_off set`),
      });
    }
    expect(await t!.store.nodes.get(n.uuid)).toMatchObject({ reservation: null, target_power_state: null, last_error: null, power_state: 'power on' });
    expect((await observed(n)).hardware).toBe('power on');
    await t!.conductor.client.setPowerState(n.uuid, 'rebooting');
    await waitForNode(t!.store, n.uuid, (x) => x.reservation === null && x.target_power_state === null);
    expect(await t!.store.nodes.get(n.uuid)).toMatchObject({ power_state: 'power on', last_error: null });
  });

  it('still powers off a node without it', async () => {
    const n = await node('plain-verb', false);
    await t!.conductor.client.setPowerState(n.uuid, 'power off');
    await waitForNode(t!.store, n.uuid, (x) => x.reservation === null && x.target_power_state === null);
    expect(await observed(n)).toMatchObject({ hardware: 'power off', power_state: 'power off' });
  });
});

describe('flow power helpers', () => {
  it('powerOffOrReboot powers a node off, or reboots one with disable_power_off and says why in the history', async () => {
    const plain = await node('h-plain', false);
    expect(await inTask(plain, (task, s) => powerOffOrReboot(task.driverTask(s), 'at the end of cleaning'))).toBe('power off');
    expect(await observed(plain)).toMatchObject({ hardware: 'power off', power_state: 'power off', events: ['power on -> power off'] });

    const kept = await node('h-kept', true);
    expect(await inTask(kept, (task, s) => powerOffOrReboot(task.driverTask(s), 'at the end of cleaning'))).toBe('power on');
    expect(await observed(kept)).toEqual({
      hardware: 'power on',
      power_state: 'power on',
      events: ['rebooted instead of powered off at the end of cleaning: disable_power_off is set, Ingot never powers this machine off'],
    });
  });

  it('powerOffUnlessDisabled leaves a node with disable_power_off on, and rebootIfKeptOn reboots only that one', async () => {
    const plain = await node('u-plain', false);
    expect(await inTask(plain, (task, s) => powerOffUnlessDisabled(task.driverTask(s), 'for the tear-down'))).toBe(true);
    await inTask(plain, (task, s) => rebootIfKeptOn(task.driverTask(s)));
    expect(await observed(plain)).toMatchObject({ hardware: 'power off', power_state: 'power off' });

    const kept = await node('u-kept', true);
    expect(await inTask(kept, (task, s) => powerOffUnlessDisabled(task.driverTask(s), 'for the tear-down'))).toBe(false);
    expect(await observed(kept)).toMatchObject({ hardware: 'power on', power_state: 'power on' });
    // The fake BMC turns the machine off behind Ingot's back: the reboot powers it on again.
    await t!.store.nodes.update(kept.uuid, { driver_internal_info: { fake_power_state: 'power off' } });
    await inTask(kept, (task, s) => rebootIfKeptOn(task.driverTask(s)));
    expect(await observed(kept)).toEqual({
      hardware: 'power on',
      power_state: 'power on',
      events: ['not powered off for the tear-down: disable_power_off is set, Ingot never powers this machine off'],
    });
  });

  it('powerOnOrReboot powers a node on, or reboots one with disable_power_off', async () => {
    const plain = await node('o-plain', false, 'power off');
    await inTask(plain, (task, s) => powerOnOrReboot(task.driverTask(s)));
    expect(await observed(plain)).toMatchObject({ hardware: 'power on', power_state: 'power on', events: ['power off -> power on'] });
    const kept = await node('o-kept', true);
    const reboots: string[] = [];
    await inTask(kept, async (task, s) => {
      const reboot = task.driver.power.reboot;
      task.driver.power.reboot = async (...args) => {
        reboots.push(task.node.uuid);
        return reboot(...args);
      };
      await powerOnOrReboot(task.driverTask(s));
    });
    expect(reboots).toEqual([kept.uuid]);
    expect(await observed(kept)).toMatchObject({ hardware: 'power on', power_state: 'power on' });
  });
});

describe('a power_off step on a node with disable_power_off', () => {
  it('fails the cleaning with last_error saying why, and the machine stays on (Ironic refuses it in node_power_action)', async () => {
    t = await startTestConductor();
    const n = await createNodeIn(t, 'dpo-step', 'manageable');
    await t.store.nodes.update(n.uuid, { disable_power_off: true, power_state: 'power on', driver_internal_info: { fake_power_state: 'power on' } });
    await t.conductor.client.doProvisionAction(n.uuid, 'clean', { clean_steps: [{ interface: 'power', step: 'power_off', args: {} }] });
    const failed = await waitForState(t.store, n.uuid, 'clean failed');
    expect(failed).toMatchObject({ maintenance: true, fault: 'clean failure', power_state: 'power on' });
    expect(failed.last_error).toContain(`Failed to clean node ${n.uuid}: Failed to set node power state to power off: node ${n.uuid} has disable_power_off set`);
    expect(failed.driver_internal_info['fake_power_state']).toBe('power on');
  });
});
