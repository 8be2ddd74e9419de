/** Every provision verb end to end on fake-hardware through the LocalConductorClient on a real SQLite store. */
import { describe, expect, it } from 'vitest';
import type { Node } from '../domain/node.js';

import { createNodeIn, waitForState, useTestConductor } from './conductor.test-support.js';

const { t, c } = useTestConductor();

async function historyOf(node: Node): Promise<string[]> {
  return (await t.store.history.list(node.id, { limit: 1000 })).filter((h) => h.event_type === 'provisioning').map((h) => h.event);
}

const toManageable = (name: string, extra: Partial<Node> = {}) => createNodeIn(t, name, 'manageable', extra);
const toActive = (name: string, extra: Partial<Node> = {}) => createNodeIn(t, name, 'active', extra);

describe('fake-hardware lifecycle', () => {
  it('create -> manage -> inspect -> provide -> deploy -> undeploy -> delete', async () => {
    const created = await c.createNode({ driver: 'fake-hardware', name: 'life' });
    expect(created).toMatchObject({ provision_state: 'enroll', power_state: null, power_interface: 'fake', deploy_interface: 'fake' });

    await c.doProvisionAction('life', 'manage', {});
    let n = await waitForState(t.store, 'life', 'manageable');
    expect(n).toMatchObject({ power_state: 'power off', target_provision_state: null, last_error: null });

    await c.doProvisionAction('life', 'inspect', {});
    n = await waitForState(t.store, 'life', 'manageable');
    expect(n.inspection_started_at).not.toBeNull();
    expect(n.inspection_finished_at).not.toBeNull();

    await c.doProvisionAction('life', 'provide', {});
    n = await waitForState(t.store, 'life', 'available');
    expect(n.power_state).toBe('power off');

    await c.doProvisionAction('life', 'active', { configdrive: { meta_data: { hostname: 'h' } } });
    n = await waitForState(t.store, 'life', 'active');
    expect(n).toMatchObject({ power_state: 'power on', target_provision_state: null, deploy_step: {} });
    expect(n.instance_info['configdrive']).toEqual({ meta_data: { hostname: 'h' } });
    expect(n.conductor_affinity).toBe(t.conductor.context.conductorId);

    await expect(c.destroyNode('life')).rejects.toMatchObject({ code: 'InvalidState', status: 409 });
    await c.updateNode('life', { instance_uuid: '8f1d5a8e-5b3a-4a43-9a0b-6a3cf3bb1a11' });
    await c.doProvisionAction('life', 'undeploy', {});
    n = await waitForState(t.store, 'life', 'available');
    expect(n).toMatchObject({ instance_info: {}, instance_uuid: null, power_state: 'power off' });

    expect(await historyOf(n)).toEqual([
      'enroll -> verifying (manage)', 'verifying -> manageable (done)',
      'manageable -> inspecting (inspect)', 'inspecting -> manageable (done)',
      'manageable -> cleaning (provide)', 'cleaning -> available (done)',
      'available -> deploying (deploy)', 'deploying -> active (done)',
      'active -> deleting (delete)', 'deleting -> cleaning (clean)', 'cleaning -> available (done)',
    ]);

    await c.doProvisionAction('life', 'manage', {});
    await waitForState(t.store, 'life', 'manageable');
    await c.destroyNode('life');
    await expect(t.store.nodes.get('life')).rejects.toMatchObject({ code: 'NodeNotFound' });
  });

  it('provide skips cleaning when the node disables automated_clean', async () => {
    await toManageable('noclean', { automated_clean: false });
    await c.doProvisionAction('noclean', 'provide', {});
    const n = await waitForState(t.store, 'noclean', 'available');
    expect(n.power_state).toBe('power off');
    expect(await historyOf(n)).toContain('cleaning -> available (done)');
  });

  it('manual clean runs the steps and ends in manageable; clean_steps is required', async () => {
    await toManageable('mc', { target_raid_config: {} });
    await expect(c.doProvisionAction('mc', 'clean', {})).rejects.toMatchObject({ code: 'InvalidParameterValue', status: 400 });
    await expect(c.doProvisionAction('mc', 'clean', { clean_steps: [{ interface: 'raid', step: 'bogus' }] })).rejects.toMatchObject({ code: 'InvalidParameterValue' });
    await c.setTargetRaidConfig('mc', { logical_disks: [{ size_gb: 10, raid_level: '1' }] });
    await c.doProvisionAction('mc', 'clean', { clean_steps: [{ interface: 'raid', step: 'create_configuration' }] });
    const n = await waitForState(t.store, 'mc', 'manageable');
    expect(n.raid_config).toEqual({ logical_disks: [{ size_gb: 10, raid_level: '1' }] });
    expect(await historyOf(n)).toContain('cleaning -> manageable (manage)');
  });

  it('a hold step stops in clean hold; unhold continues; abort fails it', async () => {
    await toManageable('hold');
    await c.doProvisionAction('hold', 'clean', { clean_steps: [{ interface: 'deploy', step: 'hold' }, { interface: 'power', step: 'power_on' }] });
    let n = await waitForState(t.store, 'hold', 'clean hold');
    expect(n.target_provision_state).toBe('manageable');
    await c.doProvisionAction('hold', 'unhold', {});
    n = await waitForState(t.store, 'hold', 'manageable');
    expect(await historyOf(n)).toEqual(expect.arrayContaining(['clean hold -> clean wait (unhold)', 'clean wait -> cleaning (resume)', 'cleaning -> manageable (manage)']));

    await c.doProvisionAction('hold', 'clean', { clean_steps: [{ interface: 'deploy', step: 'hold' }] });
    await waitForState(t.store, 'hold', 'clean hold');
    await c.doProvisionAction('hold', 'abort', {});
    n = await waitForState(t.store, 'hold', 'clean failed');
    expect(n.last_error).toMatch(/aborted/);
    expect((await t.store.history.list(n.id, { limit: 100 })).at(-1)).toMatchObject({
      severity: 'ERROR', event: expect.stringMatching(/^clean hold -> clean failed \(abort\): By request, the clean operation was aborted/),
    });
    await c.doProvisionAction('hold', 'manage', {});
    await waitForState(t.store, 'hold', 'manageable');
  });

  it('deploy hold, unhold and abort', async () => {
    await toManageable('dh');
    await c.doProvisionAction('dh', 'provide', {});
    await waitForState(t.store, 'dh', 'available');
    await c.doProvisionAction('dh', 'deploy', { deploy_steps: [{ interface: 'deploy', step: 'hold', priority: 90 }] });
    await waitForState(t.store, 'dh', 'deploy hold');
    await c.doProvisionAction('dh', 'abort', {});
    let n = await waitForState(t.store, 'dh', 'deploy failed');
    expect(n.target_provision_state).toBe('active');
    await c.doProvisionAction('dh', 'deploy', { deploy_steps: [{ interface: 'deploy', step: 'hold', priority: 90 }] });
    await waitForState(t.store, 'dh', 'deploy hold');
    await c.doProvisionAction('dh', 'unhold', {});
    n = await waitForState(t.store, 'dh', 'active');
    expect(n.last_error).toBeNull();
  });

  it('rebuild, rescue/unrescue, service and adopt', async () => {
    await toActive('r');
    await c.doProvisionAction('r', 'rebuild', {});
    await waitForState(t.store, 'r', 'active');

    await c.doProvisionAction('r', 'rescue', { rescue_password: 'secret' });
    let n = await waitForState(t.store, 'r', 'rescue');
    expect(n.instance_info['rescue_password']).toBe('secret');
    await c.doProvisionAction('r', 'unrescue', {});
    n = await waitForState(t.store, 'r', 'active');
    expect(n.instance_info['rescue_password']).toBeUndefined();

    await expect(c.doProvisionAction('r', 'service', {})).rejects.toMatchObject({ code: 'InvalidParameterValue' });
    await c.doProvisionAction('r', 'service', { service_steps: [{ interface: 'bios', step: 'apply_configuration', args: { settings: [{ name: 'X', value: '1' }] } }] });
    n = await waitForState(t.store, 'r', 'active');
    expect(n.driver_internal_info['fake_bios_settings']).toEqual({ X: '1' });
    expect(await historyOf(n)).toEqual(expect.arrayContaining(['active -> servicing (service)', 'servicing -> active (done)']));

    await toManageable('adopted');
    await c.doProvisionAction('adopted', 'adopt', {});
    n = await waitForState(t.store, 'adopted', 'active');
    expect(await historyOf(n)).toContain('adopting -> active (done)');
  });

  it('service hold: unhold continues, abort fails, abort of service failed returns to active', async () => {
    await toActive('sv');
    await c.doProvisionAction('sv', 'service', { service_steps: [{ interface: 'deploy', step: 'hold' }] });
    await waitForState(t.store, 'sv', 'service hold');
    await c.doProvisionAction('sv', 'unhold', {});
    await waitForState(t.store, 'sv', 'active');
    await c.doProvisionAction('sv', 'service', { service_steps: [{ interface: 'deploy', step: 'hold' }] });
    await waitForState(t.store, 'sv', 'service hold');
    await c.doProvisionAction('sv', 'abort', {});
    await waitForState(t.store, 'sv', 'service failed');
    await c.doProvisionAction('sv', 'abort', {});
    const back = await waitForState(t.store, 'sv', 'active');
    expect((await t.store.history.list(back.id, { limit: 100 })).at(-1)).toMatchObject({ severity: 'INFO', event: 'service failed -> active (abort)' });
  });

  it('invalid transitions are refused with InvalidStateRequested and Ironic’s message', async () => {
    const n = await c.createNode({ driver: 'fake-hardware', name: 'bad' });
    await expect(c.doProvisionAction('bad', 'active', {})).rejects.toMatchObject({
      code: 'InvalidStateRequested', status: 400,
      message: `The requested action "active" can not be performed on node "${n.uuid}" while it is in state "enroll".`,
    });
    for (const verb of ['provide', 'inspect', 'deleted', 'abort', 'unhold', 'rescue', 'unrescue', 'service', 'adopt', 'clean', 'rebuild'] as const) {
      await expect(c.doProvisionAction('bad', verb, {})).rejects.toMatchObject({ code: 'InvalidStateRequested' });
    }
    const after = await t.store.nodes.get('bad');
    expect(after).toMatchObject({ provision_state: 'enroll', reservation: null });
  });

  it('maintenance and protection block the verbs they should', async () => {
    await toActive('p');
    await c.updateNode('p', { protected: true, protected_reason: 'prod' });
    await expect(c.doProvisionAction('p', 'undeploy', {})).rejects.toMatchObject({ code: 'NodeProtected', status: 403 });
    await expect(c.doProvisionAction('p', 'rebuild', {})).rejects.toMatchObject({ code: 'NodeProtected' });
    await c.updateNode('p', { protected: false });
    await c.setMaintenance('p', true, 'broken fan');
    await expect(c.doProvisionAction('p', 'rebuild', {})).rejects.toMatchObject({ code: 'NodeInMaintenance' });
    expect((await t.store.nodes.get('p')).reservation).toBeNull();
  });

  it('verification failure returns the node to enroll with last_error', async () => {
    await c.createNode({ driver: 'fake-hardware', name: 'v', driver_info: { fake_power_delay: 'never' } });
    await c.doProvisionAction('v', 'manage', {});
    const n = await waitForState(t.store, 'v', 'enroll');
    expect(n.last_error).toMatch(/^Failed to verify node .*fake_power_delay.*run "manage" again\.$/);
    const events = await t.store.history.list(n.id, { limit: 10 });
    expect(events.at(-1)).toMatchObject({ severity: 'ERROR', event: expect.stringContaining('verifying -> enroll (fail)') });
  });
});
