/** Tasks: every provision change goes through the state machine, with target, timestamps and history durations. */
import { afterEach, describe, expect, it } from 'vitest';
import { fakePower } from '../drivers/fake/power.js';
import { HARDWARE_TYPES } from '../drivers/hardware-types.js';
import { IMPLEMENTATIONS } from '../drivers/implementations.js';
import type { DriverTask } from '../drivers/interfaces/base.js';
import { createDriverRegistry } from '../drivers/registry.js';
import type { Clock } from '../shared/clock.js';
import { Task } from './task.js';
import { startTestConductor, type TestConductor } from './conductor.test-support.js';

let t: TestConductor | undefined;
afterEach(async () => t?.close());

function manualClock(start: number): Clock & { advance(ms: number): void } {
  let now = start;
  return { now: () => now, advance: (ms) => (now += ms) };
}

describe('Task', () => {
  it('records each transition with the time spent in the previous state', async () => {
    const clock = manualClock(Date.parse('2026-05-01T10:00:00Z'));
    t = await startTestConductor({}, { clock });
    const ctx = t.conductor.context;
    const node = await t.conductor.client.createNode({ driver: 'fake-hardware', name: 'tk' });
    expect(node.provision_updated_at).toBe('2026-05-01T10:00:00.000000+00:00');

    const task = await Task.acquire(ctx, 'tk');
    clock.advance(5000);
    await task.process('manage');
    expect(task.node).toMatchObject({ provision_state: 'verifying', target_provision_state: 'manageable', provision_updated_at: '2026-05-01T10:00:05.000000+00:00' });
    clock.advance(1500);
    await task.process('fail', { lastError: 'bad credentials' });
    expect(task.node).toMatchObject({ provision_state: 'enroll', target_provision_state: null, last_error: 'bad credentials' });
    await expect(task.process('deploy')).rejects.toMatchObject({ code: 'InvalidStateRequested' });
    await task.release();

    const stored = await t.store.nodes.get('tk');
    expect(stored).toMatchObject({ provision_state: 'enroll', reservation: null, last_error: 'bad credentials' });
    const events = await t.store.history.list(node.id, { limit: 10 });
    expect(events.map((e) => [e.event, e.severity, e.duration_ms, e.conductor])).toEqual([
      ['enroll -> verifying (manage)', 'INFO', 5000, 'test-conductor'],
      ['verifying -> enroll (fail): bad credentials', 'ERROR', 1500, 'test-conductor'],
    ]);
  });

  it('writes last_error and history with the node\'s secrets masked; the node keeps them', async () => {
    t = await startTestConductor({});
    const node = await t.conductor.client.createNode({
      driver: 'fake-hardware', name: 'tk-secret',
      driver_info: { ipmi_password: 'bmc-Pw-1234', ipmi_username: 'admin' }, instance_info: { image_url: 'https://swift/temp?sig=abcdef' },
    });
    const task = await Task.acquire(t.conductor.context, 'tk-secret');
    await task.process('manage');
    await task.process('fail', { lastError: 'BMC refused admin/bmc-Pw-1234 token=xyz987 fetching https://swift/temp?sig=abcdef' });
    await task.record('power', 'login with password=bmc-Pw-1234 failed', 'ERROR', null);
    await task.release();
    const stored = await t.store.nodes.get('tk-secret');
    expect(stored.last_error).toBe('BMC refused admin/****** token=****** fetching ******');
    expect(stored.driver_info.ipmi_password).toBe('bmc-Pw-1234');
    const events = (await t.store.history.list(node.id, { limit: 10 })).map((e) => e.event).join('\n');
    expect(events).toContain('login with password=****** failed');
    expect(events).toContain('(fail): BMC refused admin/****** token=****** fetching ******');
    expect(events).not.toMatch(/bmc-Pw-1234|xyz987|sig=abcdef/);
  });

  it('exclusive tasks lock, shared tasks do not and cannot write', async () => {
    t = await startTestConductor();
    await t.conductor.client.createNode({ driver: 'fake-hardware', name: 'lk' });
    const a = await Task.acquire(t.conductor.context, 'lk');
    await expect(Task.acquire(t.conductor.context, 'lk')).rejects.toMatchObject({ code: 'NodeLocked', status: 409 });
    const reader = await Task.acquire(t.conductor.context, 'lk', { shared: true });
    expect(reader.node.reservation).toBe('test-conductor');
    expect(() => reader.set({ description: 'x' })).toThrow();
    await a.release();
    await a.release();
    expect((await t.store.nodes.get('lk')).reservation).toBeNull();
  });

  it('writes only while it holds the lock', async () => {
    t = await startTestConductor();
    const n = await t.conductor.client.createNode({ driver: 'fake-hardware', name: 'stolen' });
    const task = await Task.acquire(t.conductor.context, 'stolen');
    await t.store.nodes.releaseAll('test-conductor');
    await t.store.nodes.reserve(n.uuid, 'thief');
    task.set({ description: 'late write' });
    await expect(task.save()).rejects.toThrow();
    expect((await t.store.nodes.get('stolen')).description).toBeNull();
  });

  it('takes over the lock of a conductor that is gone: writes under it, records history as its own, releases it', async () => {
    t = await startTestConductor();
    const n = await t.conductor.client.createNode({ driver: 'fake-hardware', name: 'orphan' });
    await t.store.nodes.update(n.uuid, { provision_state: 'deploying', target_provision_state: 'active' });
    const held = await t.store.nodes.reserve(n.uuid, 'gone-host');
    expect(() => Task.takeOver(t!.conductor.context, { ...held, reservation: 'other-host' }, 'gone-host')).toThrow(expect.objectContaining({ code: 'NodeLocked' }));
    const task = Task.takeOver(t.conductor.context, held, 'gone-host');
    await task.process('fail', { lastError: 'lost' });
    expect(await t.store.nodes.get(n.uuid)).toMatchObject({ provision_state: 'deploy failed', target_provision_state: 'active', last_error: 'lost', reservation: 'gone-host' });
    const [event] = (await t.store.history.list(n.id, { limit: 10 })).slice(-1);
    expect(event).toMatchObject({ event: 'deploying -> deploy failed (fail): lost', severity: 'ERROR', conductor: 'test-conductor' });
    await task.release();
    expect((await t.store.nodes.get(n.uuid)).reservation).toBeNull();
  });
});

describe('Task power guard', () => {
  it('refuses to power off a node with disable_power_off (whoever asks), leaving the machine on; other power actions pass', async () => {
    t = await startTestConductor();
    const n = await t.conductor.client.createNode({ driver: 'fake-hardware', name: 'guard' });
    await t.store.nodes.update(n.uuid, { disable_power_off: true, driver_internal_info: { fake_power_state: 'power on' } });
    const task = await Task.acquire(t.conductor.context, 'guard');
    try {
      const dt = task.driverTask();
      for (const state of ['power off', 'soft power off'] as const) {
        await expect(task.driver.power.setPowerState(dt, state)).rejects.toMatchObject({
          code: 'InvalidState', message: expect.stringMatching(new RegExp(`^Failed to set node power state to ${state}: node ${n.uuid} has disable_power_off set`)),
        });
      }
      expect(await task.driver.power.getPowerState(dt)).toBe('power on');
      await task.driver.power.reboot(dt, false);
      await task.driver.power.setPowerState(dt, 'power on');
      expect(task.driver.power.name).toBe('fake');
      // The flag is read when the power is asked for, not when the task was taken.
      task.set({ disable_power_off: false });
      await task.driver.power.setPowerState(dt, 'power off');
      expect(await task.driver.power.getPowerState(dt)).toBe('power off');
    } finally {
      await task.release();
    }
  });

  it('guards every method of the power interface, also one the contract does not know yet', async () => {
    const calls: string[] = [];
    const power = () => ({
      ...fakePower(),
      async powerTo(_task: DriverTask, state: string) {
        calls.push(state);
      },
    });
    const impls = { ...IMPLEMENTATIONS, power: { ...IMPLEMENTATIONS.power, fake: power } };
    t = await startTestConductor({}, { registry: createDriverRegistry(['fake-hardware'], HARDWARE_TYPES, impls) });
    const n = await t.conductor.client.createNode({ driver: 'fake-hardware', name: 'new-method' });
    await t.store.nodes.update(n.uuid, { disable_power_off: true });
    const task = await Task.acquire(t.conductor.context, 'new-method');
    try {
      const guarded = task.driver.power as unknown as ReturnType<typeof power>;
      await expect(guarded.powerTo(task.driverTask(), 'soft power off')).rejects.toMatchObject({ code: 'InvalidState' });
      await guarded.powerTo(task.driverTask(), 'power on');
      expect(calls).toEqual(['power on']);
    } finally {
      await task.release();
    }
  });
});
