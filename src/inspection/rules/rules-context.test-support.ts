/** A node, its ports and inspection data for the rules tests. */
import type { JsonObject, Node, Port } from '../../domain/node.js';
import type { Inventory } from '../../protocol/agent/inventory.js';
import type { RulesContext } from './types.js';

export function makeNode(over: Partial<Node> = {}): Node {
  return {
    id: 7, uuid: '1be26c0b-03f2-4d2e-ae87-c02d7f33c123', name: 'node-7', driver: 'ipmi', disable_power_off: false,
    driver_info: { ipmi_address: '10.0.0.7' }, driver_internal_info: {}, properties: { capabilities: 'boot_mode:bios' },
    instance_info: {}, instance_uuid: null, chassis_id: null, extra: {}, owner: null, lessee: null, description: null,
    resource_class: null, conductor_group: '', shard: null, parent_node: null, conductor_affinity: null,
    power_state: 'power on', target_power_state: null, provision_state: 'inspecting', target_provision_state: 'manageable',
    provision_updated_at: null, maintenance: false, maintenance_reason: null, fault: null, last_error: null,
    reservation: 'conductor-1', console_enabled: false, inspection_started_at: null, inspection_finished_at: null,
    raid_config: {}, target_raid_config: {}, clean_step: {}, deploy_step: {}, service_step: {}, protected: false,
    protected_reason: null, retired: false, retired_reason: null, automated_clean: null, allocation_id: null,
    network_data: {}, boot_mode: null, secure_boot: null, bios_interface: null, boot_interface: null,
    console_interface: null, deploy_interface: null, firmware_interface: null, inspect_interface: null,
    management_interface: null, network_interface: null, power_interface: null, raid_interface: null,
    rescue_interface: null, storage_interface: null, vendor_interface: null, traits: ['CUSTOM_OLD'],
    created_at: '2026-01-01T00:00:00Z', updated_at: null, version: 3,
    ...over,
  };
}

export function makePort(address: string, uuid: string, over: Partial<Port> = {}): Port {
  return {
    id: 1, uuid, address, node_id: 7, portgroup_id: null, name: null, extra: {}, internal_info: {},
    local_link_connection: {}, pxe_enabled: true, physical_network: null, is_smartnic: false,
    created_at: '2026-01-01T00:00:00Z', updated_at: null, ...over,
  };
}

export function makeInventory(): Inventory {
  return {
    cpu: { model_name: 'Intel Xeon', frequency: '2400', count: 8, architecture: 'x86_64', flags: ['vmx', 'aes'] },
    memory: { total: 17179869184, physical_mb: 16384 },
    disks: [
      { name: '/dev/sda', model: 'SSD1', size: 480103981056, rotational: false, wwn: null, serial: 'S1', vendor: 'ATA', wwn_with_extension: null, wwn_vendor_extension: null, hctl: null, by_path: null },
      { name: '/dev/sdb', model: 'HDD2', size: 4000787030016, rotational: true, wwn: null, serial: 'S2', vendor: 'ATA', wwn_with_extension: null, wwn_vendor_extension: null, hctl: null, by_path: null },
    ],
    interfaces: [
      { name: 'eth0', mac_address: '52:54:00:aa:bb:01', ipv4_address: '192.168.122.10', has_carrier: true, lldp: null, vendor: null, product: null, biosdevname: null },
      { name: 'eth1', mac_address: '52:54:00:aa:bb:02', ipv4_address: null, has_carrier: false, lldp: null, vendor: null, product: null, biosdevname: null },
    ],
    bmc_address: '10.0.0.7',
    bmc_v6address: '::/0',
    system_vendor: { manufacturer: 'Dell Inc.', product_name: 'PowerEdge R640', serial_number: 'ABC123' },
    boot: { current_boot_mode: 'uefi', pxe_interface: '52:54:00:aa:bb:01' },
    hostname: 'localhost',
  };
}

export function makeContext(over: { node?: Partial<Node>; pluginData?: JsonObject; ports?: Port[] } = {}): RulesContext {
  return {
    node: makeNode(over.node),
    ports: over.ports ?? [
      makePort('52:54:00:aa:bb:01', '0c9d1a84-5b1f-4b38-9f27-111111111111'),
      makePort('52:54:00:aa:bb:02', '0c9d1a84-5b1f-4b38-9f27-222222222222', { id: 2, pxe_enabled: false }),
    ],
    inventory: makeInventory(),
    pluginData: over.pluginData ?? { root_disk: { name: '/dev/sda', size: 480103981056 }, auto_discovered: true, cpus: 8 },
  };
}
