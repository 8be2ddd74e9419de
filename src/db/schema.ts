/**
 * The tables as kysely sees them, and for each table which columns hold JSON text and which hold
 * booleans. Booleans are stored as 0/1 integers and timestamps as ISO-8601 text on every dialect, so
 * the same SQL and the same row mapping work on SQLite and PostgreSQL.
 */
import type { Generated } from 'kysely';
import type { InterfaceFields } from '../domain/node.js';

/** 0 or 1: a boolean as stored. */
export type Flag = number;

export interface NodesTable extends InterfaceFields {
  id: Generated<number>;
  uuid: string;
  name: string | null;
  driver: string;
  driver_info: string;
  driver_internal_info: string;
  properties: string;
  instance_info: string;
  instance_uuid: string | null;
  chassis_id: number | null;
  extra: string;
  owner: string | null;
  lessee: string | null;
  description: string | null;
  resource_class: string | null;
  conductor_group: string;
  shard: string | null;
  parent_node: string | null;
  conductor_affinity: number | null;
  power_state: string | null;
  target_power_state: string | null;
  provision_state: string;
  target_provision_state: string | null;
  provision_updated_at: string | null;
  maintenance: Flag;
  maintenance_reason: string | null;
  fault: string | null;
  last_error: string | null;
  reservation: string | null;
  console_enabled: Flag;
  inspection_started_at: string | null;
  inspection_finished_at: string | null;
  raid_config: string;
  target_raid_config: string;
  clean_step: string;
  deploy_step: string;
  service_step: string;
  protected: Flag;
  protected_reason: string | null;
  retired: Flag;
  retired_reason: string | null;
  automated_clean: Flag | null;
  allocation_id: number | null;
  network_data: string;
  boot_mode: string | null;
  secure_boot: Flag | null;
  traits: string;
  created_at: string;
  updated_at: string | null;
  /** Bumped by every write of the row (migration 0002). */
  version: Generated<number>;
  /** Never power the machine off (migration 0006). */
  disable_power_off: Generated<Flag>;
}

export interface PortsTable {
  id: Generated<number>;
  uuid: string;
  address: string;
  node_id: number;
  portgroup_id: number | null;
  name: string | null;
  extra: string;
  internal_info: string;
  local_link_connection: string;
  pxe_enabled: Flag;
  physical_network: string | null;
  is_smartnic: Flag;
  created_at: string;
  updated_at: string | null;
}

export interface PortgroupsTable {
  id: Generated<number>;
  uuid: string;
  name: string | null;
  address: string | null;
  node_id: number;
  extra: string;
  internal_info: string;
  mode: string | null;
  properties: string;
  standalone_ports_supported: Flag;
  created_at: string;
  updated_at: string | null;
}

export interface ChassisTable {
  id: Generated<number>;
  uuid: string;
  description: string | null;
  extra: string;
  created_at: string;
  updated_at: string | null;
}

export interface ConductorsTable {
  id: Generated<number>;
  hostname: string;
  conductor_group: string;
  drivers: string;
  online: Flag;
  created_at: string;
  updated_at: string | null;
}

export interface NodeHistoryTable {
  id: Generated<number>;
  uuid: string;
  node_id: number;
  severity: string;
  event_type: string;
  event: string;
  conductor: string | null;
  user: string | null;
  duration_ms: number | null;
  created_at: string;
}

export interface NodeInventoryTable {
  node_id: number;
  inventory: string;
  plugin_data: string;
  created_at: string;
  updated_at: string | null;
}

export interface InspectionRulesTable {
  id: Generated<number>;
  uuid: string;
  description: string | null;
  priority: number;
  sensitive: Flag;
  phase: string;
  conditions: string;
  actions: string;
  created_at: string;
  updated_at: string | null;
}

export interface LegacyRulesTable {
  id: Generated<number>;
  uuid: string;
  description: string | null;
  scope: string | null;
  conditions: string;
  actions: string;
  created_at: string;
}

/** The whole database, for kysely's typed queries. */
export interface Database {
  nodes: NodesTable;
  ports: PortsTable;
  portgroups: PortgroupsTable;
  chassis: ChassisTable;
  conductors: ConductorsTable;
  node_history: NodeHistoryTable;
  node_inventory: NodeInventoryTable;
  inspection_rules: InspectionRulesTable;
  legacy_rules: LegacyRulesTable;
}

/** What the row mapping needs to know about a table. */
export interface TableSpec {
  /** Every column, in table order. */
  readonly columns: readonly string[];
  /** Columns holding JSON text (objects or arrays). */
  readonly json: readonly string[];
  /** Columns holding 0/1 booleans. */
  readonly flags: readonly string[];
  /**
   * Columns only the store writes (a row version): `toRow` leaves them out, so a record read back
   * can be passed as changes without the caller writing them.
   */
  readonly managed?: readonly string[];
}

export const NODE_COLUMNS = [
  'id', 'uuid', 'name', 'driver', 'driver_info', 'driver_internal_info', 'properties', 'instance_info',
  'instance_uuid', 'chassis_id', 'extra', 'owner', 'lessee', 'description', 'resource_class', 'conductor_group',
  'shard', 'parent_node', 'conductor_affinity', 'power_state', 'target_power_state', 'provision_state',
  'target_provision_state', 'provision_updated_at', 'maintenance', 'maintenance_reason', 'fault', 'last_error',
  'reservation', 'console_enabled', 'inspection_started_at', 'inspection_finished_at', 'raid_config',
  'target_raid_config', 'clean_step', 'deploy_step', 'service_step', 'protected', 'protected_reason', 'retired',
  'retired_reason', 'automated_clean', 'allocation_id', 'network_data', 'boot_mode', 'secure_boot',
  'bios_interface', 'boot_interface', 'console_interface', 'deploy_interface', 'firmware_interface',
  'inspect_interface', 'management_interface', 'network_interface', 'power_interface', 'raid_interface',
  'rescue_interface', 'storage_interface', 'vendor_interface', 'traits', 'created_at', 'updated_at', 'version',
  'disable_power_off',
] as const;

export const NODE_SPEC: TableSpec = {
  columns: NODE_COLUMNS,
  json: [
    'driver_info', 'driver_internal_info', 'properties', 'instance_info', 'extra', 'raid_config',
    'target_raid_config', 'clean_step', 'deploy_step', 'service_step', 'network_data', 'traits',
  ],
  flags: ['maintenance', 'console_enabled', 'protected', 'retired', 'automated_clean', 'secure_boot', 'disable_power_off'],
  managed: ['version'],
};

export const PORT_SPEC: TableSpec = {
  columns: [
    'id', 'uuid', 'address', 'node_id', 'portgroup_id', 'name', 'extra', 'internal_info', 'local_link_connection',
    'pxe_enabled', 'physical_network', 'is_smartnic', 'created_at', 'updated_at',
  ],
  json: ['extra', 'internal_info', 'local_link_connection'],
  flags: ['pxe_enabled', 'is_smartnic'],
};

export const PORTGROUP_SPEC: TableSpec = {
  columns: [
    'id', 'uuid', 'name', 'address', 'node_id', 'extra', 'internal_info', 'mode', 'properties',
    'standalone_ports_supported', 'created_at', 'updated_at',
  ],
  json: ['extra', 'internal_info', 'properties'],
  flags: ['standalone_ports_supported'],
};

export const CHASSIS_SPEC: TableSpec = {
  columns: ['id', 'uuid', 'description', 'extra', 'created_at', 'updated_at'],
  json: ['extra'],
  flags: [],
};

export const CONDUCTOR_SPEC: TableSpec = {
  columns: ['id', 'hostname', 'conductor_group', 'drivers', 'online', 'created_at', 'updated_at'],
  json: ['drivers'],
  flags: ['online'],
};

export const HISTORY_SPEC: TableSpec = {
  columns: ['id', 'uuid', 'node_id', 'severity', 'event_type', 'event', 'conductor', 'user', 'duration_ms', 'created_at'],
  json: [],
  flags: [],
};

export const INSPECTION_RULE_SPEC: TableSpec = {
  columns: ['id', 'uuid', 'description', 'priority', 'sensitive', 'phase', 'conditions', 'actions', 'created_at', 'updated_at'],
  json: ['conditions', 'actions'],
  flags: ['sensitive'],
};

export const LEGACY_RULE_SPEC: TableSpec = {
  columns: ['id', 'uuid', 'description', 'scope', 'conditions', 'actions', 'created_at'],
  json: ['conditions', 'actions'],
  flags: [],
};
