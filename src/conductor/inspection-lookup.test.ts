import { afterEach, describe, expect, it } from 'vitest';
import { addressHost, bmcHosts, lookupInspectedNode, meaningfulAddresses } from './inspection-lookup.js';
import { startTestConductor, type TestConductor } from './conductor.test-support.js';

const open: TestConductor[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) await t.close();
});

async function fleet() {
  const t = await startTestConductor();
  open.push(t);
  const mk = async (name: string, state: string, info: Record<string, string>, macs: string[]) => {
    const node = await t.store.nodes.create({ driver: 'fake-hardware', name, provision_state: state as 'inspect wait', driver_info: info });
    for (const address of macs) await t.store.ports.create({ node_id: node.id, address });
    return node;
  };
  return {
    t,
    a: await mk('a', 'inspect wait', { redfish_address: 'https://10.0.0.1:8443/redfish', redfish_system_id: '/redfish/v1/Systems/1' }, ['52:54:00:00:00:0a']),
    b: await mk('b', 'inspecting', { ipmi_address: '10.0.0.2' }, ['52:54:00:00:00:0b']),
    c: await mk('c', 'manageable', { ipmi_address: '10.0.0.3' }, ['52:54:00:00:00:0c']),
  };
}

describe('finding the node of an inspection payload', () => {
  it('reads BMC hosts from driver_info addresses of every form', () => {
    expect(addressHost('https://10.0.0.1:8443/redfish')).toBe('10.0.0.1');
    expect(addressHost('10.0.0.2:623')).toBe('10.0.0.2');
    expect(addressHost('fd00::5')).toBe('fd00::5');
    expect(addressHost('[fd00::5]:623')).toBe('fd00::5');
    expect(addressHost('https://[fd00::6]/')).toBe('fd00::6');
    expect(bmcHosts({ driver_info: { ipmi_address: 'BMC.Example', deploy_kernel: 'x', redfish_address: '' } })).toEqual(['bmc.example']);
    expect(meaningfulAddresses(['0.0.0.0', '::/0', null, '10.0.0.9'])).toEqual(['10.0.0.9']);
  });

  it('finds a node by MAC, by BMC address, or by both agreeing', async () => {
    const { t, a, b } = await fleet();
    const ctx = t.conductor.context;
    expect((await lookupInspectedNode(ctx, { macs: ['52:54:00:00:00:0A'], bmcAddresses: [] })).uuid).toBe(a.uuid);
    expect((await lookupInspectedNode(ctx, { macs: [], bmcAddresses: ['10.0.0.2'] })).uuid).toBe(b.uuid);
    expect((await lookupInspectedNode(ctx, { macs: ['52:54:00:00:00:0b', 'aa:bb:cc:dd:ee:ff'], bmcAddresses: ['10.0.0.2', '0.0.0.0'] })).uuid).toBe(b.uuid);
    expect((await lookupInspectedNode(ctx, { macs: ['52:54:00:00:00:0a'], bmcAddresses: [], nodeUuid: a.uuid })).uuid).toBe(a.uuid);
  });

  it('takes a node_uuid only when the data also recognises that node, unless it has neither ports nor a BMC address', async () => {
    const { t, a, b } = await fleet();
    const ctx = t.conductor.context;
    for (const keys of [{ macs: [], bmcAddresses: [] }, { macs: ['aa:bb:cc:dd:ee:ff'], bmcAddresses: ['10.9.9.9'] }]) {
      await expect(lookupInspectedNode(ctx, { ...keys, nodeUuid: a.uuid })).rejects.toMatchObject({ code: 'InspectionLookupFailed' });
    }
    expect((await lookupInspectedNode(ctx, { macs: [], bmcAddresses: ['10.0.0.2'], nodeUuid: b.uuid })).uuid).toBe(b.uuid);
    const bare = await t.store.nodes.create({ driver: 'fake-hardware', name: 'bare', provision_state: 'inspect wait' });
    expect((await lookupInspectedNode(ctx, { macs: [], bmcAddresses: [], nodeUuid: bare.uuid })).uuid).toBe(bare.uuid);
  });

  it('says what it tried when nothing matches, and refuses disagreeing or idle nodes', async () => {
    const { t, a } = await fleet();
    const ctx = t.conductor.context;
    await expect(lookupInspectedNode(ctx, { macs: ['aa:bb:cc:dd:ee:ff'], bmcAddresses: ['0.0.0.0'] })).rejects.toMatchObject({
      code: 'InspectionLookupFailed',
      message: 'No node being inspected matches the inspection data (MACs aa:bb:cc:dd:ee:ff; BMC addresses (none)).',
    });
    await expect(lookupInspectedNode(ctx, { macs: ['52:54:00:00:00:0a'], bmcAddresses: ['10.0.0.2'] })).rejects.toMatchObject({
      code: 'InspectionLookupAmbiguous',
      message: expect.stringMatching(/matches 2 nodes: .*MAC 52:54:00:00:00:0a.*BMC address 10\.0\.0\.2/),
    });
    await expect(lookupInspectedNode(ctx, { macs: ['52:54:00:00:00:0c'], bmcAddresses: [] })).rejects.toMatchObject({
      code: 'InvalidState',
      message: expect.stringContaining('is not being inspected (provision state manageable)'),
    });
    await expect(lookupInspectedNode(ctx, { macs: ['52:54:00:00:00:0b'], bmcAddresses: [], nodeUuid: a.uuid })).rejects.toMatchObject({
      code: 'InspectionLookupAmbiguous',
    });
  });

  it('lets MACs decide when a BMC address is shared by many nodes (a chassis manager, an emulator)', async () => {
    const t = await startTestConductor();
    open.push(t);
    const mk = async (name: string, mac: string | null) => {
      const node = await t.store.nodes.create({ driver: 'fake-hardware', name, provision_state: 'inspect wait', driver_info: { ipmi_address: '127.0.0.1', ipmi_port: 6230 } });
      if (mac) await t.store.ports.create({ node_id: node.id, address: mac });
      return node;
    };
    const x = await mk('x', '52:54:00:00:01:01');
    await mk('y', '52:54:00:00:01:02');
    await mk('z', null);
    const ctx = t.conductor.context;
    expect((await lookupInspectedNode(ctx, { macs: ['52:54:00:00:01:01'], bmcAddresses: ['127.0.0.1'] })).uuid).toBe(x.uuid);
    await expect(lookupInspectedNode(ctx, { macs: ['52:54:00:00:09:09'], bmcAddresses: ['127.0.0.1'] })).rejects.toMatchObject({
      code: 'InspectionLookupAmbiguous',
      message: expect.stringContaining('belongs to 3 nodes being inspected'),
    });
  });
});
