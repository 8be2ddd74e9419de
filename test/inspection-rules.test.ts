/**
 * Inspection rules and auto-discovery on a real conductor and SQLite store: the agent's data for a node
 * being inspected runs the hooks, then the built-in and stored Ironic-format rules (by priority), then the
 * legacy rules; their changes land on the node and its ports. A failing rule ends in inspect failed and
 * names the rule. With auto-discovery on, data from an unknown machine enrolls a node.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { profileInventory } from '../src/agent/hardware/simulated.js';
import { simulatedProfile } from '../src/bmc/profiles.js';
import { createNodeIn, startTestConductor, waitForNode, waitForState, type TestConductor } from '../src/conductor/conductor.test-support.js';
import type { JsonObject } from '../src/domain/node.js';
import type { InspectionRuleInput } from '../src/inspection/rules/index.js';

let t: TestConductor | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const trait = (name: string) => ({ op: 'add-trait', args: { name } });

async function inspecting(c: TestConductor, name: string, bmc: string, extra: JsonObject = {}): Promise<string> {
  const node = await createNodeIn(c, name, 'manageable', { inspect_interface: 'agent', driver_info: { ipmi_address: bmc }, properties: extra });
  await c.conductor.client.doProvisionAction(node.uuid, 'inspect', {});
  await waitForState(c.store, node.uuid, 'inspect wait');
  return node.uuid;
}

function data(index: number, bmc: string): JsonObject {
  return { inventory: profileInventory(simulatedProfile(index, 'rules'), { bmcAddress: bmc }) } as unknown as JsonObject;
}

describe('inspection rules during in-band inspection', () => {
  it('apply built-in, stored and legacy rules in order: capabilities, traits, driver_info, ports and plugin data', async () => {
    const builtIn: InspectionRuleInput[] = [{
      uuid: 'builtin-1', priority: 200, description: 'everyone', sensitive: false, phase: 'main', conditions: [],
      actions: [{ op: 'set-capability', args: { name: 'rack', value: 'r1' } }, trait('CUSTOM_BUILTIN')],
    }];
    t = await startTestConductor({}, { builtInRules: builtIn });
    const store = t.store;
    await store.inspectionRules.create({
      description: 'later overrides', priority: 10, sensitive: false, phase: 'main', conditions: [],
      actions: [{ op: 'set-capability', args: { name: 'rack', value: 'r2' } }],
    });
    await store.inspectionRules.create({
      description: 'big boxes', priority: 50, sensitive: false, phase: 'main',
      conditions: [{ op: 'one-of', args: { value: '{inventory[cpu][count]}', values: ['16', '32'] } }],
      actions: [
        trait('CUSTOM_BIG'),
        { op: 'set-attribute', args: { path: '/driver_info/redfish_address', value: 'https://{inventory[bmc_address]}' } },
        { op: 'set-port-attribute', args: { port_id: simulatedProfile(1, 'rules').nics[0]?.mac ?? '', path: '/extra/rack_port', value: 'sw1/7' } },
        { op: 'set-plugin-data', args: { path: 'classified', value: 'big' } },
      ],
    });
    await store.inspectionRules.create({
      description: 'not for small', priority: 40, sensitive: false, phase: 'main',
      conditions: [{ op: '!one-of', args: { value: '{inventory[cpu][count]}', values: ['16', '32'] } }],
      actions: [trait('CUSTOM_SMALL')],
    });
    await store.legacyRules.create({
      description: 'scoped', scope: 'lab', conditions: [{ op: 'ge', field: 'inventory.memory.physical_mb', value: 1024, multiple: 'any', invert: false }],
      actions: [{ action: 'set-capability', name: 'legacy', value: 'yes' }],
    });

    const big = await inspecting(t, 'big', '10.40.0.2', { inspection_scope: 'lab' });
    const small = await inspecting(t, 'small', '10.40.0.3');
    // Profile 1 has 16 CPUs, profile 0 has 4.
    await t.conductor.client.continueInspection(data(1, '10.40.0.2'));
    await t.conductor.client.continueInspection(data(0, '10.40.0.3'));
    const bigNode = await waitForNode(store, big, (n) => n.reservation === null && n.provision_state !== 'inspecting' && n.provision_state !== 'inspect wait', 10_000);
    expect(bigNode.last_error).toBeNull();
    expect(bigNode.provision_state).toBe('manageable');
    const smallNode = await waitForState(store, small, 'manageable', 10_000);

    expect(bigNode.traits.sort()).toEqual(['CUSTOM_BIG', 'CUSTOM_BUILTIN']);
    expect(smallNode.traits.sort()).toEqual(['CUSTOM_BUILTIN', 'CUSTOM_SMALL']);
    expect(String(bigNode.properties.capabilities)).toMatch(/(^|,)rack:r2(,|$)/);
    expect(String(bigNode.properties.capabilities)).toContain('legacy:yes');
    expect(String(smallNode.properties.capabilities)).not.toContain('legacy:yes');
    expect(bigNode.driver_info).toMatchObject({ ipmi_address: '10.40.0.2', redfish_address: 'https://10.40.0.2' });
    expect(bigNode.properties).toMatchObject({ cpus: 16 });
    const [port] = await store.ports.list({ node_id: bigNode.id }, { limit: 10 });
    expect(port?.extra).toMatchObject({ rack_port: 'sw1/7' });
    expect((await store.inventories.get(bigNode.id))?.plugin_data).toMatchObject({ classified: 'big' });
    const history = (await store.history.list(bigNode.id, { limit: 100 })).map((h) => h.event);
    expect(history.some((e) => e.startsWith('inspection rules applied:'))).toBe(true);
  });

  it('a fail action ends in inspect failed naming the rule; the rules’ changes are not applied', async () => {
    t = await startTestConductor();
    const rule = await t.store.inspectionRules.create({
      description: 'no AMD', priority: 0, sensitive: false, phase: 'main',
      conditions: [{ op: 'contains', args: { value: '{inventory[cpu][model_name]}', regex: 'AMD' } }],
      actions: [trait('CUSTOM_SEEN'), { op: 'fail', args: { msg: 'AMD machines are not accepted here ({inventory[cpu][model_name]})' } }],
    });
    const uuid = await inspecting(t, 'amd', '10.40.0.4');
    await t.conductor.client.continueInspection(data(2, '10.40.0.4'));
    const node = await waitForState(t.store, uuid, 'inspect failed', 10_000);
    expect(node.last_error).toBe(`Inspection failed: inspection rule ${rule.uuid} failed the inspection: AMD machines are not accepted here (AMD EPYC 7302P 16-Core Processor)`);
    expect(node.traits).toEqual([]);
    expect(node.properties).toMatchObject({ cpus: 8 });
    expect(await t.store.inventories.get(node.id)).not.toBeNull();
  });

  it('a rule changing a field the node cannot take ends in inspect failed that says so', async () => {
    t = await startTestConductor();
    await t.store.inspectionRules.create({
      description: null, priority: 0, sensitive: false, phase: 'main', conditions: [],
      actions: [{ op: 'set-attribute', args: { path: '/provision_state', value: 'active' } }],
    });
    const uuid = await inspecting(t, 'bad-rule', '10.40.0.5');
    await t.conductor.client.continueInspection(data(3, '10.40.0.5'));
    const node = await waitForState(t.store, uuid, 'inspect failed', 10_000);
    expect(node.last_error).toMatch(/^Inspection failed: the inspection rules' changes could not be applied: .*provision_state/);
  });
});

describe('auto-discovery', () => {
  it('is off by default: an unknown machine is refused and nothing is created', async () => {
    t = await startTestConductor();
    await expect(t.conductor.client.continueInspection(data(4, '10.50.0.9'))).rejects.toMatchObject({ code: 'InspectionLookupFailed' });
    expect(await t.store.nodes.list({}, { limit: 10 })).toEqual([]);
  });

  it('enrolls an unknown machine: enroll state, BMC address, ports, properties, inventory; rules see auto_discovered', async () => {
    t = await startTestConductor({}, { inspector: { auto_discovery: { enabled: true, driver: 'ipmi' } } });
    await t.store.inspectionRules.create({
      description: 'credentials for discovered machines', priority: 0, sensitive: true, phase: 'main',
      conditions: [{ op: 'is-true', args: { value: '{plugin_data[auto_discovered]}' } }],
      actions: [{ op: 'set-attribute', args: { path: '/driver_info/ipmi_username', value: 'admin' } }],
    });
    const body = data(5, '10.50.0.10');
    const uuid = await t.conductor.client.continueInspection(body);
    const node = await waitForNode(t.store, uuid, (n) => n.reservation === null && n.inspection_finished_at !== null, 10_000);
    expect(node).toMatchObject({ provision_state: 'enroll', driver: 'ipmi', inspect_interface: 'agent', last_error: null });
    expect(node.driver_info).toEqual({ ipmi_address: '10.50.0.10', ipmi_username: 'admin' });
    expect(node.properties).toMatchObject({ cpus: simulatedProfile(5, 'rules').cpu.count });
    const ports = await t.store.ports.list({ node_id: node.id }, { limit: 10 });
    expect(ports.map((p) => p.address)).toContain(simulatedProfile(5, 'rules').nics[0]?.mac);
    expect((await t.store.inventories.get(node.id))?.plugin_data).toMatchObject({ auto_discovered: true });
    const history = (await t.store.history.list(node.id, { limit: 100 })).map((h) => h.event);
    expect(history[0]).toMatch(/^enrolled by auto-discovery/);

    // The same machine again: found by its MAC, not enrolled twice.
    await expect(t.conductor.client.continueInspection(body)).rejects.toMatchObject({ code: 'InvalidState' });
    expect((await t.store.nodes.list({}, { limit: 10 })).length).toBe(1);
  });

  it('does not enroll a machine whose BMC address belongs to a node that is not being inspected', async () => {
    t = await startTestConductor({}, { inspector: { auto_discovery: { enabled: true, driver: 'ipmi' } } });
    const known = await createNodeIn(t, 'known', 'manageable', { driver_info: { ipmi_address: '10.50.0.11' } });
    const err = await t.conductor.client.continueInspection(data(6, '10.50.0.11')).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'InspectionLookupFailed', message: expect.stringContaining(`belongs to node ${known.uuid}, which is not being inspected`) });
    expect((await t.store.nodes.list({}, { limit: 10 })).length).toBe(1);
  });
});
