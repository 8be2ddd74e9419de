import { describe, it, expect } from 'vitest';
import { simulatedProfile } from '../../src/bmc/profiles.js';
import { defaultInspectorConfig, INGOT_DEFAULT_HOOKS, IRONIC_DEFAULT_HOOKS } from '../../src/config/inspector.js';
import { ALL_HOOKS } from '../../src/inspection/hooks/all-hooks.js';
import type { InspectionHook } from '../../src/inspection/hooks/types.js';
import { checkInspectorConfig, processInspection, resolveHooks, type ProcessResult } from '../../src/inspection/process.js';
import { InspectionDataError, validateInspectionPayload } from '../../src/inspection/validate.js';
import type { IngotError } from '../../src/shared/errors.js';
import { ipaSample, nodeRecord, payloadFromProfile, portRecord } from './processing-fixtures.js';

const GIB = 2 ** 30;

function ok(result: ProcessResult): Extract<ProcessResult, { ok: true }> {
  if (!result.ok) throw new Error(`processing failed in ${result.failure.hook}: ${result.failure.message}`);
  return result;
}

describe('processInspection on the real IPA payload', () => {
  it('fills the scheduling properties, capabilities and the port', () => {
    const payload = validateInspectionPayload(ipaSample());
    const r = ok(processInspection({ node: nodeRecord({ capabilities: 'node:n1' }), ports: [], payload, config: defaultInspectorConfig() }));
    expect(r.node.properties).toEqual({
      capabilities: 'node:n1,boot_mode:bios,cpu_aes:true,cpu_hugepages:true,cpu_hugepages_1g:true',
      cpu_arch: 'x86_64',
      cpus: 2,
      memory_mb: 24576,
      local_gb: 255,
    });
    expect(r.node.extra).toBeUndefined();
    // No boot NIC in this payload: the NIC with an address becomes the port.
    expect(r.ports).toEqual({
      create: [{ address: '02:fc:00:00:00:01', pxe_enabled: true, extra: {}, local_link_connection: {}, physical_network: null }],
      update: [],
      delete: [],
    });
    expect(Object.keys(r.pluginData)).toEqual(expect.arrayContaining(['root_disk', 'all_interfaces', 'valid_interfaces', 'macs', 'pci_devices', 'numa_topology', 'local_gb']));
    expect(r.pluginData).not.toHaveProperty('inventory');
    expect(r.timings.map((t) => t.hook)).toEqual([...INGOT_DEFAULT_HOOKS]);
    expect(r.timings.every((t) => t.ms >= 0)).toBe(true);
    expect(r.totalMs).toBeGreaterThanOrEqual(0);
  });

  it('with Ironic\'s default hooks only sets cpu_arch and creates the port', () => {
    const payload = validateInspectionPayload(ipaSample());
    const r = ok(processInspection({ node: nodeRecord(), ports: [], payload, config: defaultInspectorConfig({ hooks: [...IRONIC_DEFAULT_HOOKS] }) }));
    expect(r.node.properties).toEqual({ cpu_arch: 'x86_64' });
    expect(r.ports.create).toHaveLength(1);
  });
});

describe('processInspection on the simulated fleet', () => {
  // Independent expectations per fleet shape: local_gb = floor(smallest disk in decimal GB * 1e9 / 2^30) - 1.
  const LOCAL_GB: Record<number, number> = { 480: 446, 960: 893, 240: 222, 1920: 1787 };

  for (let i = 0; i < 10; i++) {
    it(`machine ${i}: properties match the hardware profile`, () => {
      const profile = simulatedProfile(i);
      const payload = validateInspectionPayload(payloadFromProfile(profile, i));
      const r = ok(processInspection({ node: nodeRecord(), ports: [], payload, config: defaultInspectorConfig() }));
      const smallest = Math.min(...profile.disks.map((d) => d.size_bytes / 1e9));
      expect(r.node.properties).toEqual({
        cpu_arch: 'x86_64',
        cpus: profile.cpu.count,
        memory_mb: profile.memory_mib,
        local_gb: LOCAL_GB[smallest],
        capabilities: `boot_mode:${profile.boot_mode},cpu_vt:true,cpu_aes:true`,
      });
      const pxe = profile.nics.find((n) => n.pxe_enabled)!;
      expect(r.ports.create).toEqual([{ address: pxe.mac, pxe_enabled: true, extra: {}, local_link_connection: {}, physical_network: null }]);
    });
  }

  it('add_ports all / active / pxe on a 4-NIC machine', () => {
    const profile = simulatedProfile(2);
    const payload = validateInspectionPayload(payloadFromProfile(profile, 2));
    payload.inventory.interfaces[3]!.ipv4_address = '10.2.0.9';
    const created = (add_ports: 'pxe' | 'active' | 'all' | 'disabled') =>
      ok(processInspection({ node: nodeRecord(), ports: [], payload, config: defaultInspectorConfig({ add_ports }) })).ports.create.map((p) => [p.address, p.pxe_enabled]);
    const macs = profile.nics.map((n) => n.mac);
    expect(created('pxe')).toEqual([[macs[0], true]]);
    expect(created('active')).toEqual([[macs[0], true], [macs[3], false]]);
    expect(created('all')).toEqual(macs.map((m, n) => [m, n === 0]));
    expect(created('disabled')).toEqual([]);
  });

  it('re-inspection: existing ports are updated and pruned, not re-created', () => {
    const profile = simulatedProfile(1);
    const payload = validateInspectionPayload(payloadFromProfile(profile, 1));
    payload.inventory.interfaces[0]!.lldp = [[1, '04112233aabbcc'], [2, '0565746831'], [5, '746f722d3031']];
    const old = portRecord('52:54:00:aa:aa:aa');
    const eth0 = portRecord(profile.nics[0]!.mac, { pxe_enabled: false, local_link_connection: { switch_info: 'rack-7' } });
    const r = ok(processInspection({ node: nodeRecord(), ports: [old, eth0], payload, config: defaultInspectorConfig({ keep_ports: 'present' }) }));
    expect(r.ports.create).toEqual([]);
    expect(r.ports.delete).toEqual([{ uuid: old.uuid, address: old.address, reason: expect.stringContaining('not in the expected MAC list') }]);
    expect(r.ports.update).toEqual([{
      uuid: eth0.uuid, address: eth0.address,
      changes: { pxe_enabled: true, local_link_connection: { switch_info: 'rack-7', switch_id: '11:22:33:aa:bb:cc', port_id: 'eth1' } },
    }]);
    expect(r.notes.some((n) => n.hook === 'ports' && n.message.includes('deleted'))).toBe(true);
  });

  it('later hooks see ports planned by earlier ones (LLDP and physnet land on the new port)', () => {
    const profile = simulatedProfile(0);
    const payload = validateInspectionPayload(payloadFromProfile(profile, 0));
    payload.inventory.interfaces[0]!.lldp = [[1, '04112233aabbcc'], [2, '0565746830']];
    const config = defaultInspectorConfig({ hooks: [...INGOT_DEFAULT_HOOKS, 'physical-network'], physical_network_cidr_map: ['10.1.0.0/16:physnet1'] });
    const r = ok(processInspection({ node: nodeRecord(), ports: [], payload, config }));
    expect(r.ports.create).toEqual([{
      address: profile.nics[0]!.mac, pxe_enabled: true, extra: {}, physical_network: 'physnet1',
      local_link_connection: { switch_id: '11:22:33:aa:bb:cc', port_id: 'eth0' },
    }]);
    expect((r.pluginData.parsed_lldp as Record<string, unknown>).eth0).toEqual({ switch_chassis_id: '11:22:33:aa:bb:cc', switch_port_id: 'eth0' });
  });

  // (What processing costs per inventory is a figure of `npm run bench:inspection`, not of a test.)
  it('processes a fleet in a row with one configuration, each machine to its own result', () => {
    const config = defaultInspectorConfig();
    const before = structuredClone(config);
    for (let i = 0; i < 200; i++) {
      const profile = simulatedProfile(i);
      const r = ok(processInspection({ node: nodeRecord(), ports: [], payload: validateInspectionPayload(payloadFromProfile(profile, i)), config }));
      expect({ i, cpus: r.node.properties?.cpus, memory_mb: r.node.properties?.memory_mb, ports: r.ports.create.map((p) => p.address) })
        .toEqual({ i, cpus: profile.cpu.count, memory_mb: profile.memory_mib, ports: [profile.nics.find((n) => n.pxe_enabled)!.mac] });
    }
    expect(config).toEqual(before);
  });
});

describe('failures', () => {
  it('a ramdisk error fails before any other hook, with no changes', () => {
    const payload = validateInspectionPayload({ ...ipaSample(), error: 'Could not find a disk' });
    const r = processInspection({ node: nodeRecord(), ports: [], payload, config: defaultInspectorConfig() });
    expect(r).toMatchObject({ ok: false, failure: { hook: 'ramdisk-error', message: 'Ramdisk reported error: Could not find a disk' } });
    expect(r).not.toHaveProperty('node');
    expect(r).not.toHaveProperty('ports');
  });

  it('root device hints that match nothing fail the run, after the ports hook, with nothing applied', () => {
    const payload = validateInspectionPayload(ipaSample());
    const r = processInspection({ node: nodeRecord({ root_device: { serial: 'nope' } }), ports: [], payload, config: defaultInspectorConfig() });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.failure).toEqual({ hook: 'root-device', message: 'No disks satisfied root device hints {"serial":"nope"}' });
    expect(r.timings.find((t) => t.hook === 'ports')).toBeDefined();
  });

  it('a hook that throws becomes a failure naming it', () => {
    const boom: InspectionHook = { name: 'boom', run: () => { throw new Error('kaput'); } };
    const payload = validateInspectionPayload(ipaSample());
    const r = processInspection({ node: nodeRecord(), ports: [], payload, config: defaultInspectorConfig() }, [ALL_HOOKS[0]!, boom]);
    expect(r).toMatchObject({ ok: false, failure: { hook: 'boom', message: 'hook boom failed: kaput' } });
  });

  it('malformed existing capabilities fail the capability hooks', () => {
    const payload = validateInspectionPayload(ipaSample());
    const r = processInspection({ node: nodeRecord({ capabilities: 'garbage' }), ports: [], payload, config: defaultInspectorConfig() });
    expect(r).toMatchObject({ ok: false, failure: { hook: 'boot-mode' } });
  });

  it('a bad payload never reaches processing: the error names the path', () => {
    const body = ipaSample() as { inventory: { interfaces: { mac_address: string }[] } };
    body.inventory.interfaces[0]!.mac_address = 'zz';
    expect(() => validateInspectionPayload(body)).toThrow(InspectionDataError);
    expect(() => validateInspectionPayload(body)).toThrow('inventory.interfaces[0].mac_address: "zz" is not a MAC address');
  });
});

describe('purity', () => {
  it('does not modify the node, ports or payload', () => {
    const payload = validateInspectionPayload(payloadFromProfile(simulatedProfile(2), 2));
    const node = nodeRecord({ capabilities: 'a:b', root_device: { rotational: false } }, { keep: 1 });
    const ports = [portRecord(simulatedProfile(2).nics[1]!.mac)];
    const before = JSON.stringify({ payload, node, ports });
    const r = ok(processInspection({ node, ports, payload, config: defaultInspectorConfig({ keep_ports: 'added', add_ports: 'all' }) }));
    expect(JSON.stringify({ payload, node, ports })).toBe(before);
    expect(r.node.properties!.capabilities).toBe('a:b,boot_mode:uefi,cpu_vt:true,cpu_aes:true');
    expect(r.node.properties!.root_device).toEqual({ rotational: false });
  });
});

describe('resolveHooks', () => {
  it('resolves the defaults in order', () => {
    expect(resolveHooks(INGOT_DEFAULT_HOOKS).map((h) => h.name)).toEqual([...INGOT_DEFAULT_HOOKS]);
    expect(resolveHooks(ALL_HOOKS.map((h) => h.name))).toHaveLength(ALL_HOOKS.length);
  });
  it('rejects unknown, unsupported, duplicate and out-of-order hooks', () => {
    const err = (names: string[]) => {
      try {
        resolveHooks(names);
      } catch (e) {
        expect((e as IngotError).code).toBe('ConfigInvalid');
        return (e as Error).message;
      }
      throw new Error('accepted');
    };
    expect(err(['ramdisk-error', 'nope'])).toMatch(/^inspector\.hooks\[1\]: hook "nope" is not known/);
    expect(err(['raid-device'])).toMatch(/is not supported by Ingot/);
    expect(err(['cpus', 'cpus'])).toMatch(/listed twice/);
    expect(err(['ports', 'validate-interfaces'])).toBe('inspector.hooks[0]: hook "ports" needs "validate-interfaces" earlier in the list');
  });
  it('checkInspectorConfig also checks the CIDR map', () => {
    expect(checkInspectorConfig(defaultInspectorConfig())).toHaveLength(INGOT_DEFAULT_HOOKS.length);
    expect(() => checkInspectorConfig(defaultInspectorConfig({ physical_network_cidr_map: ['nonsense'] }))).toThrow(/physical_network_cidr_map\[0\]/);
  });
});

describe('root disk sizes', () => {
  it('uses hints from properties.root_device for local_gb', () => {
    const payload = validateInspectionPayload(payloadFromProfile(simulatedProfile(2), 2));
    const r = ok(processInspection({ node: nodeRecord({ root_device: { size: '>= 1000' } }), ports: [], payload, config: defaultInspectorConfig() }));
    expect(r.node.properties!.local_gb).toBe(Math.floor(4000e9 / GIB) - 1);
  });
});
