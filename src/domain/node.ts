/**
 * The records Ingot keeps, as the rest of the code sees them. Field names and meanings are Ironic's
 * (the API serializes them as they are); `id` is the internal sequence used for sorting and markers.
 * Timestamps are ISO-8601 strings in UTC; free-form dicts are plain objects.
 */
import { errorMessage } from '../shared/errors.js';
import type { Json, JsonObject } from '../shared/json.js';
import type { ProvisionState } from './states.js';

export type { Json, JsonObject };

/** The per-node driver interfaces, in Ironic's order. `<name>_interface` is a node field for each. */
export const INTERFACES = [
  'bios', 'boot', 'console', 'deploy', 'firmware', 'inspect', 'management', 'network', 'power', 'raid',
  'rescue', 'storage', 'vendor',
] as const;
export type InterfaceName = (typeof INTERFACES)[number];
/** A node's `<name>_interface` fields: the interface chosen for it, null for the hardware type's default. */
export type InterfaceFields = { [K in InterfaceName as `${K}_interface`]: string | null };

export type PowerState = 'power on' | 'power off' | 'rebooting' | 'soft power off' | 'soft rebooting' | 'error';
export type BootDevice = 'pxe' | 'disk' | 'cdrom' | 'bios' | 'safe' | 'wanboot' | 'floppy';

/** Boot modes as Ironic names them (`ironic.common.boot_modes`): UEFI or legacy BIOS. */
export type BootMode = 'uefi' | 'bios';
/** Every boot mode Ingot knows. */
export const BOOT_MODES: readonly BootMode[] = ['bios', 'uefi'];

/**
 * Virtual media device types as Ironic names them (`boot_devices.VMEDIA_DEVICES`): a USB stick (`disk`),
 * a CD/DVD (`cdrom`) or a floppy.
 */
export type VmediaDeviceType = 'disk' | 'cdrom' | 'floppy';
/** Every virtual media device type, in Ironic's order (its error messages list them so). */
export const VMEDIA_DEVICE_TYPES: readonly VmediaDeviceType[] = ['disk', 'cdrom', 'floppy'];

export interface Node extends InterfaceFields {
  id: number;
  uuid: string;
  name: string | null;
  driver: string;
  driver_info: JsonObject;
  driver_internal_info: JsonObject;
  properties: JsonObject;
  instance_info: JsonObject;
  instance_uuid: string | null;
  chassis_id: number | null;
  extra: JsonObject;
  owner: string | null;
  lessee: string | null;
  description: string | null;
  resource_class: string | null;
  conductor_group: string;
  shard: string | null;
  parent_node: string | null;
  /** Id of the conductor that last deployed the node (Ironic's conductor_affinity); null when none. */
  conductor_affinity: number | null;
  power_state: PowerState | null;
  target_power_state: PowerState | null;
  provision_state: ProvisionState;
  target_provision_state: ProvisionState | null;
  provision_updated_at: string | null;
  maintenance: boolean;
  maintenance_reason: string | null;
  fault: string | null;
  last_error: string | null;
  /** Hostname of the conductor holding the exclusive lock, or null. */
  reservation: string | null;
  console_enabled: boolean;
  inspection_started_at: string | null;
  inspection_finished_at: string | null;
  raid_config: JsonObject;
  target_raid_config: JsonObject;
  clean_step: JsonObject;
  deploy_step: JsonObject;
  service_step: JsonObject;
  protected: boolean;
  protected_reason: string | null;
  retired: boolean;
  retired_reason: string | null;
  /**
   * Ingot never powers the machine off (Ironic 1.95, for NC-SI machines whose BMC shares a NIC that
   * dies with the host, and DPUs): flows reboot or leave the power alone instead, and a power-off
   * request is refused.
   */
  disable_power_off: boolean;
  automated_clean: boolean | null;
  allocation_id: number | null;
  network_data: JsonObject;
  boot_mode: string | null;
  secure_boot: boolean | null;
  traits: string[];
  created_at: string;
  updated_at: string | null;
  /**
   * Row version: the store adds one on every write of the node, so an unchanged version means an
   * unchanged node (caches of rendered nodes are keyed by it). Internal: never shown by the API.
   */
  version: number;
}

/** True for power actions that leave the machine off (refused when the node has `disable_power_off`). */
export function powersOff(action: string): boolean {
  return action === 'power off' || action === 'soft power off';
}

/**
 * Why `action` is refused on a node with `disable_power_off`: the text of message `powerOffRefused`
 * (Ironic's PowerStateFailure text, "Failed to set node power state to ...", with the reason and the way
 * out). Raise it as `fail('powerOffRefused', { node: node.uuid, action })`.
 */
export function powerOffRefusal(node: Pick<Node, 'uuid'>, action: string): string {
  return errorMessage('powerOffRefused', { node: node.uuid, action }).message;
}

export interface Port {
  id: number;
  uuid: string;
  address: string;
  node_id: number;
  portgroup_id: number | null;
  name: string | null;
  extra: JsonObject;
  internal_info: JsonObject;
  local_link_connection: JsonObject;
  pxe_enabled: boolean;
  physical_network: string | null;
  is_smartnic: boolean;
  created_at: string;
  updated_at: string | null;
}

export interface Portgroup {
  id: number;
  uuid: string;
  name: string | null;
  address: string | null;
  node_id: number;
  extra: JsonObject;
  internal_info: JsonObject;
  mode: string | null;
  properties: JsonObject;
  standalone_ports_supported: boolean;
  created_at: string;
  updated_at: string | null;
}

export interface Chassis {
  id: number;
  uuid: string;
  description: string | null;
  extra: JsonObject;
  created_at: string;
  updated_at: string | null;
}

export interface Conductor {
  id: number;
  hostname: string;
  conductor_group: string;
  /** Hardware types this conductor serves. */
  drivers: string[];
  online: boolean;
  created_at: string;
  /** Last heartbeat; a conductor silent for longer than its timeout is considered dead. */
  updated_at: string | null;
}

/** One entry of a node's history: every state change, with how long the node spent on the phase. */
export interface HistoryEvent {
  id: number;
  uuid: string;
  node_id: number;
  /** INFO for normal progress, ERROR for failures. */
  severity: 'INFO' | 'WARNING' | 'ERROR';
  /** What kind of event: `provisioning`, `power`, `conductor`, `maintenance`, … */
  event_type: string;
  /** Human-readable description, e.g. "manageable -> cleaning (provide)". */
  event: string;
  conductor: string | null;
  user: string | null;
  /** Milliseconds spent in the previous state before this change, when known. */
  duration_ms: number | null;
  created_at: string;
}
