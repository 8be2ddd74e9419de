import { describe, expect, it } from 'vitest';
import { useTestApi, faultString as fault, LATEST, version as V } from '../app.test-support.js';

const t = useTestApi();


async function node(name: string) {
  const res = await t.app.inject({ method: 'POST', url: '/v1/nodes', headers: LATEST, payload: { driver: 'fake-hardware', name } });
  expect(res.statusCode).toBe(201);
  return res.json() as { uuid: string };
}

describe('states', () => {
  it('shows the state summary gated by version', async () => {
    const n = await node('s1');
    const latest = (await t.app.inject({ url: `/v1/nodes/${n.uuid}/states`, headers: LATEST })).json();
    expect(latest).toMatchObject({ provision_state: 'enroll', power_state: null, console_enabled: false, raid_config: {} });
    expect(latest).toHaveProperty('boot_mode');
    const old = (await t.app.inject({ url: `/v1/nodes/${n.uuid}/states` })).json();
    expect(old).not.toHaveProperty('raid_config');
  });

  it('names provision states as the node itself does at every version', async () => {
    const { uuid } = await node('st-inspect');
    await t.store.nodes.update(uuid, { provision_state: 'inspect wait' });
    for (const [v, want] of [['1.38', 'inspecting'], ['1.39', 'inspect wait']] as const) {
      const states = (await t.app.inject({ url: `/v1/nodes/${uuid}/states`, headers: V(v) })).json();
      const shown = (await t.app.inject({ url: `/v1/nodes/${uuid}`, headers: V(v) })).json();
      expect([states.provision_state, shown.provision_state]).toEqual([want, want]);
    }
  });

  it('sets power (202 with Location) and refuses bad targets and soft targets before 1.27', async () => {
    await node('p1');
    const res = await t.app.inject({ method: 'PUT', url: '/v1/nodes/p1/states/power', headers: { ...LATEST, host: 'h' }, payload: { target: 'power on' } });
    expect(res.statusCode).toBe(202);
    expect(res.headers.location).toBe('http://h/v1/nodes/p1/states');
    expect((await t.store.nodes.get('p1')).power_state).toBe('power on');
    const soft = await t.app.inject({ method: 'PUT', url: '/v1/nodes/p1/states/power', headers: V('1.26'), payload: { target: 'soft power off' } });
    expect(soft.statusCode).toBe(406);
    const badTimeout = await t.app.inject({ method: 'PUT', url: '/v1/nodes/p1/states/power', headers: LATEST, payload: { target: 'power off', timeout: 0 } });
    expect(badTimeout.statusCode).toBe(400);
    const wrongType = await t.app.inject({ method: 'PUT', url: '/v1/nodes/p1/states/power', headers: LATEST, payload: { target: 'power off', timeout: 'soon' } });
    expect(wrongType.statusCode).toBe(400);
    expect(fault(wrongType.body)).toContain('timeout');
  });

  it('runs provision verbs through the conductor and gates verbs by version', async () => {
    const n = await node('v1');
    const manage = await t.app.inject({ method: 'PUT', url: `/v1/nodes/${n.uuid}/states/provision`, headers: LATEST, payload: { target: 'manage' } });
    expect(manage.statusCode).toBe(202);
    expect(manage.headers.location).toContain(`/v1/nodes/${n.uuid}/states`);
    expect((await t.store.nodes.get(n.uuid)).provision_state).toBe('manageable');
    expect(t.conductor.calls).toContain('doProvisionAction:manage');

    const unknown = await t.app.inject({ method: 'PUT', url: `/v1/nodes/${n.uuid}/states/provision`, headers: LATEST, payload: { target: 'fly' } });
    expect(unknown.statusCode).toBe(400);
    expect(fault(unknown.body)).toContain('fly');

    const tooNew = await t.app.inject({ method: 'PUT', url: `/v1/nodes/${n.uuid}/states/provision`, headers: V('1.72'), payload: { target: 'deploy' } });
    expect(tooNew.statusCode).toBe(406);

    const invalid = await t.app.inject({ method: 'PUT', url: `/v1/nodes/${n.uuid}/states/provision`, headers: LATEST, payload: { target: 'unrescue' } });
    expect(invalid.statusCode).toBe(400);

    const clean = await t.app.inject({ method: 'PUT', url: `/v1/nodes/${n.uuid}/states/provision`, headers: LATEST, payload: { target: 'clean' } });
    expect(clean.statusCode).toBe(400);
    expect(fault(clean.body)).toContain('clean_steps');

    const rescue = await t.app.inject({ method: 'PUT', url: `/v1/nodes/${n.uuid}/states/provision`, headers: LATEST, payload: { target: 'rescue' } });
    expect(fault(rescue.body)).toContain('rescue_password');

    const provide = await t.app.inject({ method: 'PUT', url: `/v1/nodes/${n.uuid}/states/provision`, headers: LATEST, payload: { target: 'provide' } });
    expect(provide.statusCode).toBe(202);
    expect((await t.store.nodes.get(n.uuid)).provision_state).toBe('available');
  });

  it('sets the RAID target (204) and the console (202)', async () => {
    const n = await node('r1');
    const raid = await t.app.inject({ method: 'PUT', url: `/v1/nodes/${n.uuid}/states/raid`, headers: LATEST, payload: { logical_disks: [{ size_gb: 10, raid_level: '1' }] } });
    expect(raid.statusCode).toBe(204);
    expect((await t.store.nodes.get(n.uuid)).target_raid_config).toEqual({ logical_disks: [{ size_gb: 10, raid_level: '1' }] });
    expect((await t.app.inject({ method: 'PUT', url: `/v1/nodes/${n.uuid}/states/raid`, headers: V('1.11'), payload: {} })).statusCode).toBe(404);
    const con = await t.app.inject({ method: 'PUT', url: `/v1/nodes/${n.uuid}/states/console`, headers: LATEST, payload: { enabled: true } });
    expect(con.statusCode).toBe(202);
    const got = (await t.app.inject({ url: `/v1/nodes/${n.uuid}/states/console`, headers: LATEST })).json();
    expect(got.console_enabled).toBe(true);
  });
});

describe('management, maintenance, validate', () => {
  it('sets and reads the boot device', async () => {
    const n = await node('b1');
    const put = await t.app.inject({ method: 'PUT', url: `/v1/nodes/${n.uuid}/management/boot_device`, headers: LATEST, payload: { boot_device: 'pxe', persistent: true } });
    expect(put.statusCode).toBe(204);
    const got = (await t.app.inject({ url: `/v1/nodes/${n.uuid}/management/boot_device`, headers: LATEST })).json();
    expect(got).toEqual({ boot_device: 'pxe', persistent: true });
    const sup = (await t.app.inject({ url: `/v1/nodes/${n.uuid}/management/boot_device/supported`, headers: LATEST })).json();
    expect(sup).toEqual({ supported_boot_devices: ['pxe', 'disk'] });
    const bad = await t.app.inject({ method: 'PUT', url: `/v1/nodes/${n.uuid}/management/boot_device`, headers: LATEST, payload: { boot_device: 'usb-stick' } });
    expect(bad.statusCode).toBe(400);
  });

  it('sets and clears maintenance with a reason', async () => {
    const n = await node('m1');
    const put = await t.app.inject({ method: 'PUT', url: `/v1/nodes/${n.uuid}/maintenance`, headers: LATEST, payload: { reason: 'disk swap' } });
    expect(put.statusCode).toBe(202);
    expect(await t.store.nodes.get(n.uuid)).toMatchObject({ maintenance: true, maintenance_reason: 'disk swap' });
    const del = await t.app.inject({ method: 'DELETE', url: `/v1/nodes/${n.uuid}/maintenance`, headers: LATEST });
    expect(del.statusCode).toBe(202);
    expect((await t.store.nodes.get(n.uuid)).maintenance).toBe(false);
  });

  it('validates per interface, omitting the reason when valid', async () => {
    const n = await node('val1');
    const res = (await t.app.inject({ url: `/v1/nodes/${n.uuid}/validate`, headers: LATEST })).json();
    expect(res.power).toEqual({ result: true });
    expect(res.rescue).toEqual({ result: null, reason: 'not supported' });
    const old = (await t.app.inject({ url: `/v1/nodes/${n.uuid}/validate`, headers: V('1.30') })).json();
    expect(old).not.toHaveProperty('rescue');
  });
});

describe('traits', () => {
  it('replaces, adds, lists and removes traits (1.37)', async () => {
    const n = await node('t1');
    const url = `/v1/nodes/${n.uuid}/traits`;
    expect((await t.app.inject({ url, headers: V('1.36') })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'PUT', url, headers: LATEST, payload: { traits: ['CUSTOM_B', 'HW_CPU_X86_VMX'] } })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'PUT', url: `${url}/CUSTOM_A`, headers: LATEST })).statusCode).toBe(204);
    expect((await t.app.inject({ url, headers: LATEST })).json()).toEqual({ traits: ['CUSTOM_A', 'CUSTOM_B', 'HW_CPU_X86_VMX'] });
    expect((await t.app.inject({ url: `/v1/nodes/${n.uuid}`, headers: LATEST })).json().traits.sort()).toEqual(['CUSTOM_A', 'CUSTOM_B', 'HW_CPU_X86_VMX']);
    expect((await t.app.inject({ method: 'DELETE', url: `${url}/CUSTOM_B`, headers: LATEST })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'DELETE', url: `${url}/CUSTOM_Z`, headers: LATEST })).statusCode).toBe(404);
    const bad = await t.app.inject({ method: 'PUT', url: `${url}/lower_case`, headers: LATEST });
    expect(bad.statusCode).toBe(400);
    expect(fault(bad.body)).toMatch(/^Invalid trait "lower_case"/);
    const long = `CUSTOM_${'X'.repeat(250)}`;
    expect((await t.app.inject({ method: 'PUT', url, headers: LATEST, payload: { traits: [long] } })).statusCode).toBe(400);
    const badList = await t.app.inject({ method: 'PUT', url, headers: LATEST, payload: { traits: ['CUSTOM_OK', 'custom_lower'] } });
    expect(badList.statusCode).toBe(400);
    expect(fault(badList.body)).toMatch(/^Invalid trait "custom_lower"/);
    expect((await t.app.inject({ method: 'DELETE', url, headers: LATEST })).statusCode).toBe(204);
    expect((await t.app.inject({ url, headers: LATEST })).json()).toEqual({ traits: [] });
  });
});

describe('history and misc sub-resources', () => {
  it('lists history with durations and shows one event (1.78)', async () => {
    const n = await node('h1');
    const stored = await t.store.nodes.get(n.uuid);
    const e1 = await t.store.history.record({ node_id: stored.id, severity: 'INFO', event_type: 'provisioning', event: 'enroll -> verifying (manage)', conductor: 'c1', user: null, duration_ms: 1500 });
    await t.store.history.record({ node_id: stored.id, severity: 'INFO', event_type: 'provisioning', event: 'verifying -> manageable (done)', conductor: 'c1', user: null, duration_ms: null });
    expect((await t.app.inject({ url: `/v1/nodes/${n.uuid}/history`, headers: V('1.77') })).statusCode).toBe(404);
    const list = (await t.app.inject({ url: `/v1/nodes/${n.uuid}/history`, headers: LATEST })).json();
    expect(list.history).toHaveLength(2);
    expect(list.history[0]).toMatchObject({ uuid: e1.uuid, event: 'enroll -> verifying (manage)', duration: 1.5, severity: 'INFO' });
    expect(list.history[0]).not.toHaveProperty('event_type');
    const detail = (await t.app.inject({ url: `/v1/nodes/${n.uuid}/history?detail=true&limit=1`, headers: LATEST })).json();
    expect(detail.history[0]).toMatchObject({ event_type: 'provisioning', conductor: 'c1' });
    expect(detail.next).toContain(`marker=${e1.uuid}`);
    const one = (await t.app.inject({ url: `/v1/nodes/${n.uuid}/history/${e1.uuid}`, headers: LATEST })).json();
    expect(one).toMatchObject({ uuid: e1.uuid, event_type: 'provisioning', duration: 1.5 });
  });

  it('answers vifs, bios and inventory', async () => {
    const n = await node('x1');
    expect((await t.app.inject({ url: `/v1/nodes/${n.uuid}/vifs`, headers: LATEST })).json()).toEqual({ vifs: [] });
    expect((await t.app.inject({ url: `/v1/nodes/${n.uuid}/bios`, headers: LATEST })).json()).toEqual({ bios: [] });
    const inv = await t.app.inject({ url: `/v1/nodes/${n.uuid}/inventory`, headers: LATEST });
    expect(inv.statusCode).toBe(404);
    expect(fault(inv.body)).toContain('inventory');
  });
});
