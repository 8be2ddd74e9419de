/**
 * Inspection test fixtures: the real IPA payload (test/fixtures), payloads built from the
 * simulated fleet's hardware profiles, and node/port records.
 */
import { ipaInventorySample } from '../fixtures/ipa-inventory-sample.js';
import type { JsonObject, Port } from '../../src/domain/node.js';
import type { InspectionPayload } from '../../src/protocol/agent/inventory.js';
import type { HardwareProfile } from '../../src/protocol/hardware/profile.js';
import { defaultInspectorConfig, type InspectorConfig } from '../../src/config/inspector.js';
import type { HookContext } from '../../src/inspection/hooks/types.js';
import { validateInterfacesHook } from '../../src/inspection/hooks/validate-interfaces.js';

/** What ironic-python-agent 9.4.3 posted for a VM (test/fixtures/ipa-inventory-sample.json). */
export const ipaSample = ipaInventorySample;

/** The payload the simulated agent would post for `profile` (boot NIC = the profile's pxe_enabled NIC). */
export function payloadFromProfile(profile: HardwareProfile, index = 0): InspectionPayload {
  const pxeNic = profile.nics.find((n) => n.pxe_enabled) ?? null;
  return {
    inventory: {
      cpu: {
        model_name: profile.cpu.model_name, frequency: String(profile.cpu.frequency_mhz), count: profile.cpu.count,
        architecture: profile.cpu.architecture, flags: [...profile.cpu.flags], socket_count: 1,
      },
      // The kernel reports a little less than the DIMMs hold.
      memory: { total: profile.memory_mib * 2 ** 20 - 300 * 2 ** 20, physical_mb: profile.memory_mib },
      disks: profile.disks.map((d, i) => ({
        name: d.name, model: d.model, size: d.size_bytes, rotational: d.rotational, wwn: d.wwn, serial: d.serial, vendor: d.vendor,
        wwn_with_extension: d.wwn, wwn_vendor_extension: null, hctl: `${i}:0:0:0`, by_path: `/dev/disk/by-path/pci-0000:00:1f.2-ata-${i + 1}`,
      })),
      interfaces: profile.nics.map((n, i) => ({
        name: n.name, mac_address: n.mac, ipv4_address: i === 0 ? `10.1.${index >> 8 & 0xff}.${index & 0xff}` : null, ipv6_address: null,
        has_carrier: true, lldp: null, vendor: '0x8086', product: '0x1572', biosdevname: null, client_id: null, speed_mbps: n.speed_mbps,
      })),
      bmc_address: '192.0.2.10',
      bmc_v6address: null,
      system_vendor: { manufacturer: profile.manufacturer, product_name: profile.model, serial_number: profile.serial_number },
      boot: { current_boot_mode: profile.boot_mode, pxe_interface: pxeNic ? pxeNic.mac : null },
      hostname: `sim-${index}`,
    },
    boot_interface: pxeNic ? `01-${pxeNic.mac.replace(/:/g, '-')}` : null,
    error: null,
  };
}

/** A node record with just what processing reads. */
export function nodeRecord(properties: JsonObject = {}, extra: JsonObject = {}) {
  return { uuid: '1be26c0b-03f2-4d2e-ae87-c02d7f33c123', properties, extra };
}

let nextPort = 1;

/** A port record. */
export function portRecord(address: string, fields: Partial<Port> = {}): Port {
  const id = nextPort++;
  return {
    id, uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`, address, node_id: 1, portgroup_id: null, name: null,
    extra: {}, internal_info: {}, local_link_connection: {}, pxe_enabled: true, physical_network: null, is_smartnic: false,
    created_at: '2026-01-01T00:00:00Z', updated_at: null, ...fields,
  };
}

/** A hook context for unit tests of a single hook. */
export function hookContext(opts: {
  payload: InspectionPayload;
  properties?: JsonObject;
  ports?: Port[];
  config?: Partial<InspectorConfig>;
  pluginData?: Record<string, unknown>;
}): HookContext {
  const { inventory: _inventory, ...plugin } = opts.payload;
  return {
    node: nodeRecord(opts.properties ?? {}),
    ports: (opts.ports ?? []).map((p) => ({
      uuid: p.uuid, address: p.address, pxe_enabled: p.pxe_enabled, extra: p.extra, local_link_connection: p.local_link_connection, physical_network: p.physical_network,
    })),
    payload: opts.payload,
    config: defaultInspectorConfig(opts.config),
    pluginData: { ...plugin, ...opts.pluginData },
  };
}

/** The plugin data validate-interfaces produces for `ctx`, merged into a new context. */
export function withInterfaces(ctx: HookContext): HookContext {
  const r = validateInterfacesHook.preprocess!(ctx);
  if (r.failure) throw new Error(r.failure);
  return { ...ctx, pluginData: { ...ctx.pluginData, ...r.pluginData } };
}
