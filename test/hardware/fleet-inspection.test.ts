/**
 * In-band inspection of an emulated fleet: 50 simulated machines behind `ingot bmc` (half enrolled with
 * Redfish, half with IPMI; boot interface `fake`: `ingot bmc` runs the agent at every network boot without
 * a boot config) are inspected at once through the public API. Each network-boots, its
 * simulated agent posts the machine's hardware profile to Ingot, and the node ends manageable with the
 * profile's properties and its stored inventory — except one machine whose agent reports a ramdisk error
 * and one that never calls back, which end in inspect failed with a last_error that says why. Rules
 * created through both public rule APIs (`/v1/inspection_rules` and the inspector listener's `/v1/rules`)
 * set capabilities and traits from each machine's inventory.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driverInfoFor } from '../../src/bmc/inventory.js';
import { simulatedProfile } from '../../src/bmc/profiles.js';
import { startBmc, type RunningBmc } from '../support/bmc.js';
import { all, settle } from '../support/fleet.js';
import { api, apiOk } from '../support/http.js';
import { startServer, type RunningServer } from '../support/server.js';

const COUNT = 50;
const machines = Array.from({ length: COUNT }, (_, i) => {
  const name = i === 0 ? 'broken-agent' : i === 1 ? 'silent' : `m-${i}`;
  const faults = i === 0 ? { agent_error: 'mdadm: the RAID controller did not answer' } : i === 1 ? { agent_missing: true } : undefined;
  return { name, backend: 'simulated', ...(faults ? { faults } : {}) };
});

type NodeView = {
  uuid: string; name: string; provision_state: string; reservation: string | null; last_error: string | null;
  properties: Record<string, unknown>; traits: string[];
};

let ingot: RunningServer;
let inspectorUrl: string;
let bmc: RunningBmc;

beforeAll(async () => {
  ingot = await startServer({
    inspector: true,
    env: {
      INGOT_CONDUCTOR_INSPECT_WAIT_TIMEOUT_S: '8',
      INGOT_CONDUCTOR_CHECK_PROVISION_STATE_INTERVAL_S: '1',
      INGOT_IPMI_MIN_COMMAND_INTERVAL_S: '0.02',
      INGOT_IPMI_RETRANSMIT_INITIAL_S: '0.3',
      INGOT_CONDUCTOR_SYNC_POWER_STATE_INTERVAL_S: '600',
    },
  });
  inspectorUrl = ingot.inspectorUrl as string;
  bmc = await startBmc(machines, ['--ingot-url', ingot.url]);
}, 60_000);

afterAll(async () => {
  await bmc?.stop();
  await ingot?.dispose();
});


describe('inspection of an emulated fleet through the public API', () => {
  it('enrolls, manages and inspects 50 machines at once; failures say why', async () => {
    await all(bmc.inventory, async (e) => {
      const i = bmc.inventory.indexOf(e);
      const driver = i % 2 === 0 ? 'redfish' : 'ipmi';
      const node = await apiOk<NodeView>(ingot.url, 'POST', '/v1/nodes', { name: e.name, driver, inspect_interface: 'agent', boot_interface: 'fake', driver_info: driverInfoFor(e, driver) });
      await apiOk(ingot.url, 'POST', '/v1/ports', { node_uuid: node.uuid, address: e.macs[0], pxe_enabled: true });
      await apiOk(ingot.url, 'PUT', `/v1/nodes/${node.uuid}/states/provision`, { target: 'manage' });
    });
    await settle<NodeView>(ingot.url, (n) => n.provision_state === 'manageable', 60_000);

    // Ironic-format rules (API 1.96): priority order, a negated condition, a value looked up in a list.
    await apiOk(ingot.url, 'POST', '/v1/inspection_rules', {
      description: 'large memory', priority: 50,
      // Templates format to strings (Python's str.format), so the sizes are compared as strings.
      conditions: [{ op: 'one-of', args: { value: '{inventory[memory][physical_mb]}', values: ['131072', '262144'] } }],
      actions: [{ op: 'add-trait', args: { name: 'CUSTOM_LARGE_MEMORY' } }, { op: 'set-capability', args: { name: 'memory_class', value: 'large' } }],
    });
    await apiOk(ingot.url, 'POST', '/v1/inspection_rules', {
      description: 'not AMD', priority: 10,
      conditions: [{ op: '!contains', args: { value: '{inventory[cpu][model_name]}', regex: 'AMD' } }],
      actions: [{ op: 'add-trait', args: { name: 'CUSTOM_CPU_INTEL' } }],
    });
    // A legacy ironic-inspector rule on the inspector listener.
    const legacy = await fetch(`${inspectorUrl}/v1/rules`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-openstack-ironic-inspector-api-version': '1.18' },
      body: JSON.stringify({
        description: 'AMD machines',
        conditions: [{ op: 'matches', field: 'inventory.cpu.model_name', value: '.*AMD.*' }],
        actions: [{ action: 'add-trait', name: 'CUSTOM_CPU_AMD' }, { action: 'set-capability', name: 'cpu_vendor', value: 'amd' }],
      }),
    });
    expect(legacy.status).toBe(201);

    const started = Date.now();
    await all(bmc.inventory, async (e) => {
      const r = await api(ingot.url, 'PUT', `/v1/nodes/${e.name}/states/provision`, { target: 'inspect' });
      expect(r.status).toBe(202);
    });
    const done = await settle<NodeView>(ingot.url, (n) => n.provision_state === 'manageable' || n.provision_state === 'inspect failed', 90_000);
    const seconds = (Date.now() - started) / 1000;
    process.stdout.write(`fleet inspection: ${COUNT} machines inspected in ${seconds.toFixed(1)} s\n`);

    const byName = new Map(done.map((n) => [n.name, n]));
    expect(byName.get('broken-agent')).toMatchObject({ provision_state: 'inspect failed', last_error: expect.stringContaining('mdadm: the RAID controller did not answer') });
    expect(byName.get('silent')).toMatchObject({ provision_state: 'inspect failed', last_error: expect.stringMatching(/[Tt]imeout/) });
    const ok = done.filter((n) => n.name.startsWith('m-'));
    expect(ok.every((n) => n.provision_state === 'manageable')).toBe(true);
    for (const n of ok) {
      const index = bmc.inventory.findIndex((e) => e.name === n.name);
      const profile = simulatedProfile(index, n.name);
      expect(n.properties).toMatchObject({ cpus: profile.cpu.count, memory_mb: profile.memory_mib, cpu_arch: 'x86_64' });
      const capabilities = String(n.properties.capabilities);
      expect(capabilities).toContain(`boot_mode:${profile.boot_mode}`);
      const amd = profile.cpu.model_name.includes('AMD');
      const large = profile.memory_mib > 100000;
      const traits = [...(large ? ['CUSTOM_LARGE_MEMORY'] : []), amd ? 'CUSTOM_CPU_AMD' : 'CUSTOM_CPU_INTEL'].sort();
      expect([...n.traits].sort()).toEqual(traits);
      expect(capabilities.includes('memory_class:large')).toBe(large);
      expect(capabilities.includes('cpu_vendor:amd')).toBe(amd);
    }
    expect(new Set(ok.map((n) => n.traits.join()))).toHaveProperty('size', 4);
    const sample = ok[7] as NodeView;
    const inv = await apiOk<{ inventory: { interfaces: { mac_address: string }[] } }>(ingot.url, 'GET', `/v1/nodes/${sample.name}/inventory`);
    expect(inv.inventory.interfaces.map((i) => i.mac_address)).toEqual(bmc.machine(sample.name).macs);
    // The switch port each machine's agent heard over LLDP lands in its PXE port's local_link_connection.
    const index = bmc.inventory.findIndex((e) => e.name === sample.name);
    const heard = simulatedProfile(index, sample.name).nics[0]?.switch_port;
    const ports = await apiOk<{ ports: { address: string; local_link_connection: Record<string, string> }[] }>(ingot.url, 'GET', `/v1/ports/detail?node=${sample.uuid}`);
    expect(ports.ports).toEqual([expect.objectContaining({
      address: bmc.machine(sample.name).macs[0],
      local_link_connection: { switch_id: heard?.switch_id, port_id: heard?.port_id, switch_info: heard?.switch_name },
    })]);
  }, 240_000);
});
