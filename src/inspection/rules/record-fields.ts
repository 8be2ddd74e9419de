/**
 * The node and port fields a rule path may start with, so that a rule naming a field that does not
 * exist is refused when it is created rather than when a machine is inspected.
 */
import type { Node, Port } from '../../domain/node.js';

const NODE_FIELD_MAP: Record<keyof Node, true> = {
  id: true, uuid: true, name: true, driver: true, driver_info: true, driver_internal_info: true, properties: true,
  instance_info: true, instance_uuid: true, chassis_id: true, extra: true, owner: true, lessee: true, description: true,
  resource_class: true, conductor_group: true, shard: true, parent_node: true, conductor_affinity: true,
  power_state: true, target_power_state: true, provision_state: true, target_provision_state: true,
  provision_updated_at: true, maintenance: true, maintenance_reason: true, fault: true, last_error: true,
  reservation: true, console_enabled: true, inspection_started_at: true, inspection_finished_at: true,
  raid_config: true, target_raid_config: true, clean_step: true, deploy_step: true, service_step: true,
  protected: true, protected_reason: true, retired: true, retired_reason: true, automated_clean: true,
  allocation_id: true, network_data: true, boot_mode: true, secure_boot: true, bios_interface: true,
  boot_interface: true, console_interface: true, deploy_interface: true, firmware_interface: true,
  inspect_interface: true, management_interface: true, network_interface: true, power_interface: true,
  raid_interface: true, rescue_interface: true, storage_interface: true, vendor_interface: true, traits: true,
  disable_power_off: true, created_at: true, updated_at: true, version: true,
};

const PORT_FIELD_MAP: Record<keyof Port, true> = {
  id: true, uuid: true, address: true, node_id: true, portgroup_id: true, name: true, extra: true,
  internal_info: true, local_link_connection: true, pxe_enabled: true, physical_network: true, is_smartnic: true,
  created_at: true, updated_at: true,
};

/** Node fields (Ironic's names). */
export const NODE_FIELDS: ReadonlySet<string> = new Set(Object.keys(NODE_FIELD_MAP));
/** Port fields (Ironic's names). */
export const PORT_FIELDS: ReadonlySet<string> = new Set(Object.keys(PORT_FIELD_MAP));
