/** NMI, boot mode and secure boot through the LocalConductorClient on fake-hardware and manual-management nodes. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDriverRegistry } from '../../drivers/registry.js';
import { HARDWARE_TYPES } from '../../drivers/hardware-types.js';
import { IMPLEMENTATIONS } from '../../drivers/implementations.js';
import type { ManagementInterface } from '../../drivers/interfaces/management.js';
import { fakeManagement } from '../../drivers/fake/management.js';

import { createNodeIn, startTestConductor, waitForNode, type TestConductor, useTestConductor } from '../conductor.test-support.js';
import { TRANSITIONING_STATES } from '../../domain/states.js';

const { t, c } = useTestConductor();

const unlocked = (name: string, done: (n: Awaited<ReturnType<TestConductor['store']['nodes']['get']>>) => boolean) =>
  waitForNode(t.store, name, (n) => n.reservation === null && done(n));

describe('injectNmi', () => {
  it('sends an NMI through the fake driver each time, under the lock', async () => {
    await createNodeIn(t, 'nmi', 'active');
    await c.injectNmi('nmi');
    await c.injectNmi('nmi');
    const n = await t.store.nodes.get('nmi');
    expect(n.driver_internal_info['fake_nmi_count']).toBe(2);
    expect(n.reservation).toBeNull();
    await t.store.nodes.reserve('nmi', 'other-host');
    await expect(c.injectNmi('nmi')).rejects.toMatchObject({ code: 'NodeLocked', status: 409 });
    expect((await t.store.nodes.get('nmi')).driver_internal_info['fake_nmi_count']).toBe(2);
  });

  it('is unsupported on manual-management, and the lock is released', async () => {
    await c.createNode({ driver: 'manual-management', name: 'mm' });
    await expect(c.injectNmi('mm')).rejects.toMatchObject({
      code: 'UnsupportedDriverExtension', status: 400, message: 'Driver manual-management does not support inject_nmi (disabled or not implemented).',
    });
    expect((await t.store.nodes.get('mm')).reservation).toBeNull();
  });

  it('refuses an invalid management configuration before calling the driver', async () => {
    await c.createNode({ driver: 'fake-hardware', name: 'bad', driver_info: { fake_management_delay: 'soon' } });
    await expect(c.injectNmi('bad')).rejects.toMatchObject({ code: 'InvalidParameterValue' });
    expect((await t.store.nodes.get('bad')).driver_internal_info['fake_nmi_count']).toBeUndefined();
  });
});

describe('setBootMode', () => {
  it('sets the mode in a worker, records boot_mode and the history, and clears last_error', async () => {
    const created = await c.createNode({ driver: 'fake-hardware', name: 'bm' });
    await t.store.nodes.update(created.uuid, { last_error: 'an old failure' });
    await c.setBootMode('bm', 'uefi');
    const n = await unlocked('bm', (x) => x.boot_mode === 'uefi');
    expect(n).toMatchObject({ last_error: null, driver_internal_info: { fake_boot_mode: 'uefi' } });
    await c.setBootMode('bm', 'bios');
    expect((await unlocked('bm', (x) => x.boot_mode === 'bios')).driver_internal_info['fake_boot_mode']).toBe('bios');
    const events = (await t.store.history.list(created.id, { limit: 10 })).map((e) => [e.event_type, e.event, e.severity]);
    expect(events).toEqual([['management', 'boot mode None -> uefi', 'INFO'], ['management', 'boot mode uefi -> bios', 'INFO']]);
  });

  it('refuses while the node is transitioning (409) and an unknown mode (400), leaving the node alone', async () => {
    const created = await c.createNode({ driver: 'fake-hardware', name: 'busy' });
    expect(TRANSITIONING_STATES).toContain('deploying');
    expect(TRANSITIONING_STATES).not.toContain('deploy failed');
    await t.store.nodes.update(created.uuid, { provision_state: 'deploying' });
    await expect(c.setBootMode('busy', 'uefi')).rejects.toMatchObject({ code: 'InvalidState', status: 409, message: expect.stringContaining('transitioning') });
    await t.store.nodes.update(created.uuid, { provision_state: 'deploy failed' });
    await expect(c.setBootMode('busy', 'efi' as 'uefi')).rejects.toMatchObject({ code: 'InvalidParameterValue' });
    const n = await t.store.nodes.get('busy');
    expect(n).toMatchObject({ boot_mode: null, reservation: null });
    await c.setBootMode('busy', 'bios');
    expect((await unlocked('busy', (x) => x.boot_mode === 'bios')).provision_state).toBe('deploy failed');
  });

  it('is unsupported on manual-management, synchronously', async () => {
    await c.createNode({ driver: 'manual-management', name: 'mm-bm' });
    await expect(c.setBootMode('mm-bm', 'uefi')).rejects.toMatchObject({ code: 'UnsupportedDriverExtension', message: expect.stringContaining('set_boot_mode') });
    expect(await t.store.nodes.get('mm-bm')).toMatchObject({ boot_mode: null, reservation: null });
  });

  it('setSecureBoot is unsupported by every Ingot driver', async () => {
    await c.createNode({ driver: 'fake-hardware', name: 'sb' });
    await expect(c.setSecureBoot('sb', true)).rejects.toMatchObject({ code: 'UnsupportedDriverExtension', message: expect.stringContaining('set_secure_boot_state') });
    expect((await t.store.nodes.get('sb')).reservation).toBeNull();
  });
});

describe('BMC failures', () => {
  /** A fake management whose BMC refuses: NMI and boot mode changes fail with a plain error. */
  function brokenManagement(): ManagementInterface {
    return {
      ...fakeManagement(),
      name: 'broken',
      injectNmi: async () => {
        throw new Error('BMC answered 503: busy');
      },
      setBootMode: async () => {
        throw new Error('BMC refused the PATCH');
      },
    };
  }

  let b: TestConductor;
  beforeEach(async () => {
    const types = { ...HARDWARE_TYPES, 'fake-hardware': { ...HARDWARE_TYPES['fake-hardware'], management: ['fake', 'broken'] } } as typeof HARDWARE_TYPES;
    const impls = { ...IMPLEMENTATIONS, management: { ...IMPLEMENTATIONS.management, broken: brokenManagement } };
    b = await startTestConductor({ hostname: 'broken-host' }, { registry: createDriverRegistry(['fake-hardware'], types, impls) });
  });
  afterEach(async () => b.close());

  it('surfaces an NMI failure as DriverOperationError with the BMC message', async () => {
    await b.conductor.client.createNode({ driver: 'fake-hardware', name: 'x', management_interface: 'broken' });
    await expect(b.conductor.client.injectNmi('x')).rejects.toMatchObject({
      code: 'DriverOperationError', status: 500, message: expect.stringContaining('BMC answered 503: busy'),
    });
    expect((await b.store.nodes.get('x')).reservation).toBeNull();
  });

  it('writes a failed boot mode change to last_error and keeps boot_mode', async () => {
    const created = await b.conductor.client.createNode({ driver: 'fake-hardware', name: 'y', management_interface: 'broken' });
    await b.conductor.client.setBootMode('y', 'uefi');
    const n = await waitForNode(b.store, 'y', (x) => x.reservation === null && x.last_error !== null);
    expect(n).toMatchObject({ boot_mode: null, last_error: "Failed to change boot mode to 'uefi': BMC refused the PATCH" });
    const events = (await b.store.history.list(created.id, { limit: 10 })).map((e) => [e.event_type, e.severity]);
    expect(events).toEqual([['management', 'ERROR']]);
  });
});
