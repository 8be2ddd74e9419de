/** Locks, the worker pool, error handlers, periodic tasks, start-up recovery and graceful stop. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../db/open-store.js';
import { fakePower } from '../drivers/fake/power.js';
import { HARDWARE_TYPES } from '../drivers/hardware-types.js';
import { IMPLEMENTATIONS } from '../drivers/implementations.js';
import type { PowerInterface } from '../drivers/interfaces/power.js';
import { createDriverRegistry } from '../drivers/registry.js';
import { isoTime } from '../shared/clock.js';
import { IngotError } from '../shared/errors.js';
import { checkWaitTimeoutsOnce } from './periodics/timeouts.js';
import { reapDeadConductorsOnce } from './periodics/dead-conductors.js';
import { recoverPowerFailuresOnce, syncPowerStatesOnce } from './periodics/power-sync.js';
import { createNodeIn, startTestConductor, waitForNode, waitForState, type TestConductor } from './conductor.test-support.js';

const open: TestConductor[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) await t.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function start(...args: Parameters<typeof startTestConductor>): Promise<TestConductor> {
  const t = await startTestConductor(...args);
  open.push(t);
  return t;
}

async function available(t: TestConductor, name: string, driverInfo: Record<string, string | number> = {}) {
  await createNodeIn(t, name, 'available');
  await t.conductor.client.updateNode(name, { driver_info: driverInfo });
}

describe('node lock', () => {
  it('two concurrent actions on one node: exactly one wins, the other gets NodeLocked', async () => {
    const t = await start();
    await t.conductor.client.createNode({ driver: 'fake-hardware', name: 'race' });
    const results = await Promise.allSettled([
      t.conductor.client.doProvisionAction('race', 'manage', {}),
      t.conductor.client.doProvisionAction('race', 'manage', {}),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(lost.reason).toMatchObject({ code: 'NodeLocked', status: 409, message: expect.stringContaining('test-conductor') });
    await waitForState(t.store, 'race', 'manageable');
  });

  it('a running flow keeps the lock until it ends', async () => {
    const t = await start();
    await available(t, 'busy', { fake_deploy_delay: 0.3 });
    await t.conductor.client.doProvisionAction('busy', 'active', {});
    const during = await t.store.nodes.get('busy');
    expect(during).toMatchObject({ provision_state: 'deploying', target_provision_state: 'active', reservation: 'test-conductor' });
    await expect(t.conductor.client.setPowerState('busy', 'power off')).rejects.toMatchObject({ code: 'NodeLocked' });
    await expect(t.conductor.client.updateNode('busy', { extra: { a: 1 } })).rejects.toMatchObject({ code: 'NodeLocked' });
    const done = await waitForState(t.store, 'busy', 'active');
    expect(done.reservation).toBeNull();
    const events = await t.store.history.list(done.id, { limit: 100 });
    const deployed = events.find((e) => e.event === 'deploying -> active (done)');
    // The history entry holds the time spent deploying, as the node's own timestamps tell it.
    expect(deployed?.duration_ms).toBe(Date.parse(done.provision_updated_at as string) - Date.parse(during.provision_updated_at as string));
  });
});

describe('worker pool', () => {
  it('refuses with NoFreeConductorWorkers when every worker is busy, changing nothing', async () => {
    const t = await start({ workers: 2 });
    const c = t.conductor.client;
    for (const n of ['w1', 'w2', 'w3']) await c.createNode({ driver: 'fake-hardware', name: n, driver_info: { fake_power_delay: 0.3 } });
    await c.doProvisionAction('w1', 'manage', {});
    await c.doProvisionAction('w2', 'manage', {});
    await expect(c.doProvisionAction('w3', 'manage', {})).rejects.toMatchObject({
      code: 'NoFreeConductorWorkers', status: 503, message: 'Requested action cannot be performed due to lack of free conductor workers.',
    });
    expect(await t.store.nodes.get('w3')).toMatchObject({ provision_state: 'enroll', reservation: null });
    await waitForState(t.store, 'w1', 'manageable');
    await c.doProvisionAction('w3', 'manage', {});
    await waitForState(t.store, 'w3', 'manageable');
  });
});

describe('error handlers', () => {
  it('a failing deploy leaves the node in deploy failed with last_error and no lock', async () => {
    const t = await start();
    await available(t, 'df');
    await t.conductor.client.doProvisionAction('df', 'active', {
      deploy_steps: [{ interface: 'bios', step: 'apply_configuration', args: { settings: 'not-a-list' }, priority: 50 }],
    });
    const n = await waitForState(t.store, 'df', 'deploy failed');
    expect(n.last_error).toMatch(/^Failed to deploy node .*"settings" must be a list.*deploy again, or undeploy/);
    expect(n).toMatchObject({ target_provision_state: 'active', deploy_step: {} });
    const last = (await t.store.history.list(n.id, { limit: 100 })).at(-1);
    expect(last).toMatchObject({ severity: 'ERROR', event: expect.stringMatching(/^deploying -> deploy failed \(fail\): /) });
    await t.conductor.client.doProvisionAction('df', 'undeploy', {});
    await waitForState(t.store, 'df', 'available');
  });

  it('a failing manual clean step puts the node in clean failed and maintenance, still heading for manageable', async () => {
    const t = await start();
    await createNodeIn(t, 'cf', 'manageable');
    await t.conductor.client.doProvisionAction('cf', 'clean', { clean_steps: [{ interface: 'bios', step: 'apply_configuration', args: {} }] });
    const n = await waitForState(t.store, 'cf', 'clean failed');
    expect(n).toMatchObject({ maintenance: true, fault: 'clean failure', reservation: null, target_provision_state: 'manageable' });
    expect(n.last_error).toMatch(/^Failed to clean node/);
  });

  it('power change: target set while in progress, cleared when done', async () => {
    const t = await start();
    await available(t, 'pw', { fake_power_delay: 0.2 });
    await t.conductor.client.setPowerState('pw', 'rebooting');
    expect(await t.store.nodes.get('pw')).toMatchObject({ target_power_state: 'power on', reservation: 'test-conductor' });
    const n = await waitForNode(t.store, 'pw', (x) => x.target_power_state === null && x.reservation === null);
    expect(n).toMatchObject({ power_state: 'power on', last_error: null });
    const ev = (await t.store.history.list(n.id, { limit: 100 })).at(-1);
    expect(ev).toMatchObject({ event_type: 'power', event: 'power off -> power on' });
    await expect(t.conductor.client.setPowerState('pw', 'bogus' as 'power on')).rejects.toMatchObject({ code: 'InvalidParameterValue' });
  });

  it('a driver that throws: power keeps its state with last_error; a flow fails with last_error and no lock', async () => {
    const failing = { ...IMPLEMENTATIONS, power: { ...IMPLEMENTATIONS.power, fake: () => brokenPower() } };
    const registry = createDriverRegistry(['fake-hardware'], HARDWARE_TYPES, failing);
    const t = await start({}, { registry });
    const c = t.conductor.client;
    await c.createNode({ driver: 'fake-hardware', name: 'broken' });
    await c.setPowerState('broken', 'power on');
    let n = await waitForNode(t.store, 'broken', (x) => x.reservation === null && x.target_power_state === null);
    expect(n.power_state).toBeNull();
    expect(n.last_error).toBe("Failed to change power state to 'power on' by 'power on'. Error: BMC unreachable");
    await c.doProvisionAction('broken', 'manage', {});
    n = await waitForState(t.store, 'broken', 'enroll');
    expect(n.last_error).toMatch(/^Failed to verify node .*: BMC unreachable\. Check driver_info/);
  });
});

function brokenPower(): PowerInterface {
  const boom = async (): Promise<never> => {
    throw new IngotError('DriverOperationError', 'BMC unreachable');
  };
  return { ...fakePower(), setPowerState: boom, reboot: boom, getPowerState: boom };
}

describe('periodic tasks', () => {
  it('fails a node stuck in wait call-back longer than the timeout', async () => {
    const now = Date.parse('2026-05-01T10:00:00Z');
    const t = await start({ deploy_callback_timeout_s: 60, clean_callback_timeout_s: 60 }, { clock: { now: () => now } });
    const old = isoTime(now - 120_000);
    const stuck = await t.store.nodes.create({ driver: 'fake-hardware', name: 'stuck', provision_state: 'wait call-back', target_provision_state: 'active', provision_updated_at: old });
    await t.store.nodes.create({ driver: 'fake-hardware', name: 'fresh', provision_state: 'wait call-back', provision_updated_at: isoTime(now - 59_000) });
    await t.store.nodes.create({ driver: 'fake-hardware', name: 'cw', provision_state: 'clean wait', provision_updated_at: old });
    expect((await checkWaitTimeoutsOnce(t.conductor.context)).sort()).toEqual([stuck.uuid, (await t.store.nodes.get('cw')).uuid].sort());
    const n = await t.store.nodes.get('stuck');
    expect(n).toMatchObject({ provision_state: 'deploy failed', reservation: null });
    expect(n.last_error).toMatch(/^Timeout reached while waiting for callback for node .* \(deploy_callback_timeout_s=60\)/);
    expect(await t.store.nodes.get('fresh')).toMatchObject({ provision_state: 'wait call-back' });
    expect(await t.store.nodes.get('cw')).toMatchObject({ provision_state: 'clean failed', maintenance: true, fault: 'clean failure' });
    const ev = (await t.store.history.list(n.id, { limit: 10 })).at(-1);
    expect(ev?.duration_ms).toBe(120_000);
  });

  it('power sync makes the database follow the hardware and records the mismatch', async () => {
    const t = await start();
    await available(t, 'ps');
    const n = await t.store.nodes.get('ps');
    await t.store.nodes.update(n.uuid, { driver_internal_info: { ...n.driver_internal_info, fake_power_state: 'power on' } });
    expect(await syncPowerStatesOnce(t.conductor.context)).toEqual([n.uuid]);
    expect((await t.store.nodes.get('ps')).power_state).toBe('power on');
    const ev = (await t.store.history.list(n.id, { limit: 100 })).at(-1);
    expect(ev).toMatchObject({ event_type: 'power', severity: 'WARNING', event: expect.stringContaining('power off') });
    expect(await syncPowerStatesOnce(t.conductor.context)).toEqual([]);
    await t.conductor.client.setMaintenance('ps', true, 'x');
    const m = await t.store.nodes.get('ps');
    await t.store.nodes.update(m.uuid, { driver_internal_info: { ...m.driver_internal_info, fake_power_state: 'power off' } });
    expect(await syncPowerStatesOnce(t.conductor.context)).toEqual([]);
  });

  it('power sync puts a node whose BMC keeps failing into maintenance, and recovery takes it out', async () => {
    const t = await start({ power_state_sync_max_retries: 2 });
    await available(t, 'pf');
    const n = await t.store.nodes.get('pf');
    await t.store.nodes.update(n.uuid, { driver_internal_info: { ...n.driver_internal_info, fake_power_error: 'BMC 10.0.0.9 did not answer' } });
    await syncPowerStatesOnce(t.conductor.context);
    expect(await t.store.nodes.get('pf')).toMatchObject({ maintenance: false, fault: null });
    await syncPowerStatesOnce(t.conductor.context);
    const failed = await t.store.nodes.get('pf');
    expect(failed).toMatchObject({ maintenance: true, fault: 'power failure', reservation: null });
    expect(failed.maintenance_reason).toBe('Power state sync failed 2 times in a row: BMC 10.0.0.9 did not answer');
    expect(failed.last_error).toMatch(/BMC 10\.0\.0\.9 did not answer.*answers again/);
    expect((await t.store.history.list(n.id, { limit: 100 })).at(-1)).toMatchObject({ event_type: 'power', severity: 'ERROR' });
    expect(await recoverPowerFailuresOnce(t.conductor.context)).toEqual([]);
    await t.store.nodes.update(n.uuid, { driver_internal_info: { ...failed.driver_internal_info, fake_power_error: null, fake_power_state: 'power on' } });
    expect(await recoverPowerFailuresOnce(t.conductor.context)).toEqual([n.uuid]);
    expect(await t.store.nodes.get('pf')).toMatchObject({ maintenance: false, fault: null, maintenance_reason: null, last_error: null, power_state: 'power on' });
  });

  it('a good read resets the failure count; maintenance set by an operator is left alone by recovery', async () => {
    const t = await start({ power_state_sync_max_retries: 2 });
    await available(t, 'flaky');
    const n = await t.store.nodes.get('flaky');
    const fail = async (on: boolean) => {
      const cur = await t.store.nodes.get('flaky');
      await t.store.nodes.update(n.uuid, { driver_internal_info: { ...cur.driver_internal_info, fake_power_error: on ? 'timeout' : null } });
      await syncPowerStatesOnce(t.conductor.context);
    };
    await fail(true);
    await fail(false);
    await fail(true);
    expect((await t.store.nodes.get('flaky')).maintenance).toBe(false);
    await t.conductor.client.setMaintenance('flaky', true, 'operator');
    expect(await recoverPowerFailuresOnce(t.conductor.context)).toEqual([]);
    expect(await t.store.nodes.get('flaky')).toMatchObject({ maintenance: true, maintenance_reason: 'operator' });
  });

  it('with force_power_state_during_sync the hardware is set back to the recorded state', async () => {
    const t = await start({ force_power_state_during_sync: true });
    await available(t, 'force');
    const n = await t.store.nodes.get('force');
    expect(n.power_state).toBe('power off');
    await t.store.nodes.update(n.uuid, { driver_internal_info: { ...n.driver_internal_info, fake_power_state: 'power on' } });
    expect(await syncPowerStatesOnce(t.conductor.context)).toEqual([]);
    const after = await t.store.nodes.get('force');
    expect(after).toMatchObject({ power_state: 'power off', driver_internal_info: expect.objectContaining({ fake_power_state: 'power off' }) });
    expect((await t.store.history.list(n.id, { limit: 100 })).at(-1)?.event).toMatch(/hardware set back to power off/);
  });

  it('dead conductors lose their locks and their busy nodes fail', async () => {
    const t = await start({ heartbeat_timeout_s: 0.05 });
    await t.store.conductors.register('ghost', '', ['fake-hardware']);
    const node = await t.store.nodes.create({ driver: 'fake-hardware', name: 'orphan', provision_state: 'cleaning', target_provision_state: 'available' });
    await t.store.nodes.reserve('orphan', 'ghost');
    await new Promise((r) => setTimeout(r, 120));
    await t.store.conductors.touch('test-conductor');
    expect(await reapDeadConductorsOnce(t.conductor.context)).toEqual(['ghost']);
    const n = await t.store.nodes.get(node.uuid);
    expect(n).toMatchObject({ provision_state: 'clean failed', target_provision_state: 'available', reservation: null, maintenance: true, fault: 'clean failure' });
    expect(n.last_error).toBe('cleaning failed: the conductor ghost stopped while the operation was in progress and it cannot be resumed. Fix the cause, unset maintenance, then "manage" and "provide" the node again.');
  });

  it('the periodic loops run on their own at the configured intervals', async () => {
    const t = await start({ check_provision_state_interval_s: 0.05, deploy_callback_timeout_s: 1 }, { periodics: true });
    await t.store.nodes.create({ driver: 'fake-hardware', name: 'auto', provision_state: 'wait call-back', provision_updated_at: isoTime(Date.now() - 5000) });
    await waitForState(t.store, 'auto', 'deploy failed', 3000);
  });
});

describe('start and stop', () => {
  it('start-up recovery: a node left deploying with this host’s lock ends deploy failed (kill -9)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ingot-recovery-'));
    dirs.push(dir);
    const store = await openStore({ dataDir: dir });
    const node = await store.nodes.create({ driver: 'fake-hardware', name: 'crashed', provision_state: 'deploying', target_provision_state: 'active' });
    await store.nodes.reserve(node.uuid, 'test-conductor');
    await store.nodes.create({ driver: 'fake-hardware', name: 'other-lock', provision_state: 'manageable', reservation: null });
    await store.nodes.reserve('other-lock', 'test-conductor');
    await store.close();

    const t = await start({}, { dir });
    const n = await t.store.nodes.get('crashed');
    expect(n).toMatchObject({ provision_state: 'deploy failed', reservation: null });
    expect(n.last_error).toBe('deploying failed: the conductor test-conductor stopped while the operation was in progress and it cannot be resumed. Fix the cause and deploy again, or undeploy the node.');
    expect(await t.store.nodes.get('other-lock')).toMatchObject({ provision_state: 'manageable', reservation: null });
  });

  it('graceful stop lets running work finish, then unregisters', async () => {
    const t = await start();
    await available(t, 'drain', { fake_deploy_delay: 0.3 });
    await t.conductor.client.doProvisionAction('drain', 'active', {});
    await t.conductor.stop({ timeoutMs: 5000 });
    expect(await t.store.nodes.get('drain')).toMatchObject({ provision_state: 'active', reservation: null });
    expect((await t.store.conductors.get('test-conductor')).online).toBe(false);
    await expect(t.conductor.client.doProvisionAction('drain', 'undeploy', {})).rejects.toMatchObject({ code: 'ConductorUnavailable' });
  });

  it('stop abandons work that outlives the timeout: failure state, last_error, no lock', async () => {
    const t = await start();
    // An hour's deploy: a stop that waited for it would time the test out.
    await available(t, 'slow', { fake_deploy_delay: 3600 });
    await t.conductor.client.doProvisionAction('slow', 'active', {});
    await t.conductor.stop({ timeoutMs: 100 });
    const n = await t.store.nodes.get('slow');
    expect(n).toMatchObject({ provision_state: 'deploy failed', reservation: null });
    expect(n.last_error).toMatch(/^deploying failed: the conductor test-conductor stopped/);
  });
});
