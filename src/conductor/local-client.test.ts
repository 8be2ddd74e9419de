/** The LocalConductorClient's synchronous operations on a real SQLite store. */
import { describe, expect, it } from 'vitest';

import { createNodeIn, startTestConductor, waitForNode, waitForState, useTestConductor } from './conductor.test-support.js';

const { t, c } = useTestConductor();

const activeNode = (name: string) => createNodeIn(t, name, 'active', { automated_clean: false });

describe('createNode', () => {
  it('fills interface defaults and starts in enroll', async () => {
    const n = await c.createNode({ driver: 'manual-management', name: 'mm' });
    expect(n).toMatchObject({ provision_state: 'enroll', management_interface: 'noop', power_interface: 'fake', rescue_interface: 'no-rescue', reservation: null });
    expect(n.provision_updated_at).not.toBeNull();
  });

  it('rejects unknown drivers, interfaces and conductor groups without a conductor', async () => {
    await expect(c.createNode({ driver: 'ipmi-nope' })).rejects.toMatchObject({ code: 'NoValidHost', status: 400 });
    await expect(c.createNode({ driver: 'fake-hardware', power_interface: 'redfishy' })).rejects.toMatchObject({ code: 'InterfaceNotFoundInEntrypoint' });
    await expect(c.createNode({ driver: 'fake-hardware', conductor_group: 'rack9' })).rejects.toMatchObject({
      code: 'NoValidHost', message: expect.stringContaining('conductor group "rack9"'),
    });
    expect(await t.store.nodes.count({})).toBe(0);
  });
});

describe('updateNode, maintenance and destroyNode', () => {
  it('updates under the lock, returns the node unlocked and refuses while locked', async () => {
    await c.createNode({ driver: 'fake-hardware', name: 'u' });
    const n = await c.updateNode('u', { extra: { rack: 4 }, description: 'd' });
    expect(n).toMatchObject({ extra: { rack: 4 }, description: 'd', reservation: null });
    await t.store.nodes.reserve('u', 'someone-else');
    await expect(c.updateNode('u', { description: 'x' })).rejects.toMatchObject({ code: 'NodeLocked', message: expect.stringContaining('someone-else') });
  });

  it('maintenance set/unset records history and clears reason and fault', async () => {
    const created = await c.createNode({ driver: 'fake-hardware', name: 'm' });
    await c.setMaintenance('m', true, 'disk replaced');
    expect(await t.store.nodes.get('m')).toMatchObject({ maintenance: true, maintenance_reason: 'disk replaced' });
    await t.store.nodes.update(created.uuid, { fault: 'power failure' });
    await c.setMaintenance('m', false);
    expect(await t.store.nodes.get('m')).toMatchObject({ maintenance: false, maintenance_reason: null, fault: null });
    const events = (await t.store.history.list(created.id, { limit: 10 })).map((e) => [e.event_type, e.event]);
    expect(events).toEqual([['maintenance', 'maintenance set: disk replaced'], ['maintenance', 'maintenance unset']]);
  });

  it('deletes only in allowed states or maintenance, never protected or associated nodes', async () => {
    const n = await activeNode('act');
    await expect(c.destroyNode('act')).rejects.toMatchObject({
      code: 'InvalidState', status: 409,
      message: `Can not delete node "${n.uuid}" while it is in provision state "active". Valid provision states to perform deletion are: "('manageable', 'enroll', 'adopt failed', 'available')", or set the node into maintenance mode`,
    });
    await c.updateNode('act', { instance_uuid: '0b7c2b9e-6a4a-4d4b-9c3b-2f8f6b7c1d00' });
    await expect(c.destroyNode('act')).rejects.toMatchObject({ code: 'NodeAssociated' });
    await c.updateNode('act', { protected: true });
    await c.setMaintenance('act', true);
    await expect(c.destroyNode('act')).rejects.toMatchObject({ code: 'NodeProtected', status: 403 });
    await c.updateNode('act', { protected: false });
    await c.destroyNode('act');
    await expect(c.destroyNode('act')).rejects.toMatchObject({ code: 'NodeNotFound' });
  });

  it('deletes available nodes unless allow_deleting_available_nodes is off', async () => {
    await c.createNode({ driver: 'fake-hardware', name: 'av', provision_state: 'available' });
    await c.destroyNode('av');
    const strict = await startTestConductor({ hostname: 'strict', allow_deleting_available_nodes: false });
    try {
      await strict.conductor.client.createNode({ driver: 'fake-hardware', name: 'av2', provision_state: 'available' });
      await expect(strict.conductor.client.destroyNode('av2')).rejects.toMatchObject({ code: 'InvalidState', message: expect.stringContaining(`"('manageable', 'enroll', 'adopt failed')"`) });
    } finally {
      await strict.close();
    }
  });
});

describe('driver operations', () => {
  it('validate reports per interface', async () => {
    await c.createNode({ driver: 'fake-hardware', name: 'v', rescue_interface: 'no-rescue', driver_info: { fake_deploy_delay: 'x' } });
    const v = await c.validate('v');
    expect(v.power).toEqual({ result: true, reason: null });
    expect(v.network).toEqual({ result: true, reason: null });
    expect(v.rescue).toEqual({ result: false, reason: 'Driver fake-hardware does not support rescue (disabled or not implemented).' });
    expect(v.deploy.result).toBe(false);
    expect(v.deploy.reason).toMatch(/fake_deploy_delay/);
  });

  it('boot device get/set/supported through the management interface', async () => {
    await c.createNode({ driver: 'fake-hardware', name: 'b' });
    expect(await c.getSupportedBootDevices('b')).toEqual(['pxe', 'disk']);
    await c.setBootDevice('b', 'disk', true);
    expect(await c.getBootDevice('b')).toEqual({ boot_device: 'disk', persistent: true });
    await expect(c.setBootDevice('b', 'cdrom', false)).rejects.toMatchObject({ code: 'InvalidParameterValue' });
    expect((await t.store.nodes.get('b')).reservation).toBeNull();
  });

  it('target RAID config is validated by the RAID interface', async () => {
    await c.createNode({ driver: 'fake-hardware', name: 'r' });
    await c.setTargetRaidConfig('r', { logical_disks: [{ size_gb: 'MAX', raid_level: '5' }] });
    expect((await t.store.nodes.get('r')).target_raid_config).toEqual({ logical_disks: [{ size_gb: 'MAX', raid_level: '5' }] });
    await expect(c.setTargetRaidConfig('r', { logical_disks: [{ size_gb: 1, raid_level: '9' }] })).rejects.toMatchObject({ code: 'InvalidParameterValue' });
    await c.createNode({ driver: 'manual-management', name: 'nr' });
    await expect(c.setTargetRaidConfig('nr', {})).rejects.toMatchObject({ code: 'UnsupportedDriverExtension' });
  });

  it('console enable, info and disable', async () => {
    const n = await c.createNode({ driver: 'fake-hardware', name: 'con' });
    expect(await c.getConsole('con')).toEqual({ console_enabled: false, console_info: null });
    await c.setConsoleMode('con', true);
    expect(await c.getConsole('con')).toEqual({ console_enabled: true, console_info: { type: 'fake', url: `fake://console/${n.uuid}` } });
    await c.setConsoleMode('con', false);
    expect((await t.store.nodes.get('con')).console_enabled).toBe(false);
    await c.createNode({ driver: 'manual-management', name: 'nocon' });
    await expect(c.getConsole('nocon')).rejects.toMatchObject({ code: 'UnsupportedDriverExtension' });
  });
});

describe('traits', () => {
  it('sets, adds and removes, with the 50 limit (the API checks the names)', async () => {
    await c.createNode({ driver: 'fake-hardware', name: 'tr' });
    expect(await c.setTraits('tr', ['CUSTOM_GPU', 'HW_CPU_X86_AVX2', 'CUSTOM_GPU'])).toEqual(['CUSTOM_GPU', 'HW_CPU_X86_AVX2']);
    await c.addTrait('tr', 'CUSTOM_FAST');
    expect((await t.store.nodes.get('tr')).traits.sort()).toEqual(['CUSTOM_FAST', 'CUSTOM_GPU', 'HW_CPU_X86_AVX2']);
    await c.removeTrait('tr', 'CUSTOM_GPU');
    await expect(c.removeTrait('tr', 'CUSTOM_GPU')).rejects.toMatchObject({ code: 'TraitNotFound', status: 404 });
    const fifty = Array.from({ length: 50 }, (_, i) => `CUSTOM_T${i}`);
    await c.setTraits('tr', fifty);
    await expect(c.addTrait('tr', 'CUSTOM_ONE_MORE')).rejects.toMatchObject({ code: 'InvalidParameterValue' });
    await expect(c.setTraits('tr', [...fifty, 'CUSTOM_ONE_MORE'])).rejects.toMatchObject({ code: 'InvalidParameterValue' });
  });
});

describe('ports and port groups', () => {
  it('are changed under the node lock with Ironic’s rules', async () => {
    const node = await c.createNode({ driver: 'fake-hardware', name: 'pn', automated_clean: false });
    const other = await c.createNode({ driver: 'fake-hardware', name: 'other' });
    const pg = await c.createPortgroup({ node_id: node.id, name: 'bond0', address: '52:54:00:00:00:aa' });
    const otherPg = await c.createPortgroup({ node_id: other.id, name: 'bond1' });
    const port = await c.createPort({ node_id: node.id, address: '52:54:00:00:00:01', portgroup_id: pg.id });
    await expect(c.createPort({ node_id: node.id, address: '52:54:00:00:00:02', portgroup_id: otherPg.id })).rejects.toMatchObject({ code: 'InvalidParameterValue' });
    await expect(c.createPort({ node_id: other.id, address: '52:54:00:00:00:01' })).rejects.toMatchObject({ code: 'MACAlreadyExists' });
    await expect(c.destroyPortgroup(pg.uuid)).rejects.toMatchObject({ code: 'PortgroupNotEmpty' });

    await t.store.nodes.reserve('pn', 'elsewhere');
    await expect(c.createPort({ node_id: node.id, address: '52:54:00:00:00:03' })).rejects.toMatchObject({ code: 'NodeLocked' });
    await t.store.nodes.release(node.uuid, 'elsewhere');

    await c.doProvisionAction('pn', 'manage', {});
    await waitForState(t.store, 'pn', 'manageable');
    await c.doProvisionAction('pn', 'provide', {});
    await waitForState(t.store, 'pn', 'available');
    await c.doProvisionAction('pn', 'active', {});
    await waitForNode(t.store, 'pn', (n) => n.provision_state === 'active' && n.reservation === null);
    await expect(c.updatePort(port.uuid, { address: '52:54:00:00:00:09' })).rejects.toMatchObject({ code: 'InvalidState' });
    expect((await c.updatePort(port.uuid, { extra: { a: 1 } })).extra).toEqual({ a: 1 });
    await c.setMaintenance('pn', true);
    expect((await c.updatePort(port.uuid, { address: '52:54:00:00:00:09' })).address).toBe('52:54:00:00:00:09');
    await expect(c.updatePort(port.uuid, { pxe_enabled: false })).resolves.toMatchObject({ pxe_enabled: false });
    await c.setMaintenance('pn', false);
    await expect(c.updatePort(port.uuid, { pxe_enabled: true })).rejects.toMatchObject({ code: 'InvalidState', message: expect.stringContaining('connectivity attributes') });
    await t.store.ports.update(port.uuid, { internal_info: { tenant_vif_port_id: 'vif-1' } });
    await expect(c.destroyPort(port.uuid)).rejects.toMatchObject({ code: 'InvalidState', message: `Cannot delete the port ${port.uuid} as it is bound to VIF vif-1 for tenant use.` });
    await c.setMaintenance('pn', true);
    await c.destroyPort(port.uuid);
    await c.destroyPortgroup(pg.uuid);
    await expect(t.store.ports.get(port.uuid)).rejects.toMatchObject({ code: 'PortNotFound' });
  });
});

describe('drivers and the hash ring', () => {
  it('lists enabled hardware types with this conductor as host', async () => {
    const list = await c.listDrivers();
    expect(list.map((d) => d.name)).toEqual(['fake-hardware', 'ipmi', 'manual-management', 'redfish']);
    expect(list[0]?.hosts).toEqual(['test-conductor']);
    expect(list[0]?.interfaces.power).toEqual({ enabled: ['fake'], default: 'fake' });
    expect((await c.getDriver('manual-management')).interfaces.management).toEqual({ enabled: ['noop', 'fake'], default: 'noop' });
    expect((await c.getDriver('ipmi')).interfaces.power).toEqual({ enabled: ['ipmitool'], default: 'ipmitool' });
    expect((await c.getDriver('redfish')).interfaces.inspect).toEqual({ enabled: ['redfish', 'agent', 'inspector', 'no-inspect'], default: 'redfish' });
    await expect(c.getDriver('idrac')).rejects.toMatchObject({ code: 'DriverNotFound', status: 404 });
    expect(await c.driverProperties('fake-hardware')).toHaveProperty('fake_power_delay');
    expect(await c.driverProperties('redfish')).toHaveProperty('redfish_address');
    expect(await c.driverProperties('ipmi')).toHaveProperty('ipmi_address');
  });

  it('maps nodes to the conductor of their group', async () => {
    const n = await c.createNode({ driver: 'fake-hardware', name: 'h' });
    expect(await c.conductorsFor([n, { ...n, conductor_group: 'elsewhere' }, n])).toEqual(['test-conductor', null, 'test-conductor']);
    expect(await c.conductorsFor([])).toEqual([]);
  });
});
