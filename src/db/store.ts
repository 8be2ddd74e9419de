/**
 * What the rest of Ingot asks of storage: one repository per aggregate. Implementations never branch
 * on the dialect (SQLite or PostgreSQL); differences live in the dialect files.
 */
import type { Chassis, Conductor, HistoryEvent, JsonObject, Node, Port, Portgroup } from '../domain/node.js';
import type { InspectionRuleRecord, LegacyRuleRecord } from '../domain/rules.js';

/** A page request: `marker` is the UUID of the last item of the previous page. */
export interface Page {
  limit: number;
  marker?: string | undefined;
  sortKey?: string | undefined;
  sortDir?: 'asc' | 'desc' | undefined;
}

export interface NodeFilter {
  provision_state?: string;
  driver?: string;
  resource_class?: string;
  conductor_group?: string;
  owner?: string;
  lessee?: string;
  maintenance?: boolean;
  fault?: string;
  /** true: instance_uuid set; false: not set. */
  associated?: boolean;
  instance_uuid?: string;
  chassis_id?: number;
  shard?: string[];
  sharded?: boolean;
  parent_node?: string;
  description_contains?: string;
  retired?: boolean;
  /** Only nodes whose reservation is held by this host. */
  reservation?: string;
  /** Only nodes whose provision_state is one of these. */
  provision_states?: string[];
}

/** Fields a caller may write; `id`, `uuid`, `created_at` and `version` are managed by the store on create. */
export type NodeCreate = Partial<Omit<Node, 'id' | 'created_at' | 'updated_at' | 'version'>> & { driver: string };
export type NodeChanges = Partial<Omit<Node, 'id' | 'uuid' | 'created_at' | 'updated_at' | 'version'>>;

/**
 * What a node list needs to know about a node before reading it whole: its identity, its row
 * version (changed by every write) and the fields that decide its conductor and chassis.
 */
export type NodeKey = Pick<Node, 'id' | 'uuid' | 'version' | 'driver' | 'conductor_group' | 'chassis_id'>;

export interface NodeRepository {
  create(values: NodeCreate): Promise<Node>;
  /** By UUID or, when `ident` is not a UUID, by name. Throws NodeNotFound. */
  get(ident: string): Promise<Node>;
  getById(id: number): Promise<Node>;
  list(filter: NodeFilter, page: Page): Promise<Node[]>;
  /** The keys of the nodes {@link list} returns for the same arguments, in the same order. */
  listKeys(filter: NodeFilter, page: Page): Promise<NodeKey[]>;
  /** The nodes with these ids, in no particular order; ids without a node are left out. */
  getMany(ids: readonly number[]): Promise<Node[]>;
  count(filter: NodeFilter): Promise<number>;
  /** Writes `changes`; when `reservation` is given the update only applies while that host holds the lock. */
  update(uuid: string, changes: NodeChanges, opts?: { reservation?: string }): Promise<Node>;
  /** Deletes the node with its ports, portgroups, traits and history. */
  delete(uuid: string): Promise<void>;
  /**
   * Takes the exclusive lock: a conditional UPDATE of `reservation` (only where it is NULL).
   * Throws NodeLocked naming the holder when another host has it, NodeNotFound when there is no node.
   */
  reserve(ident: string, host: string): Promise<Node>;
  /** Releases the lock if `host` holds it; returns false when it did not. */
  release(uuid: string, host: string): Promise<boolean>;
  /** Releases every lock `host` holds (a conductor that died or stops); returns the node UUIDs. */
  releaseAll(host: string): Promise<string[]>;
  setTraits(nodeId: number, traits: string[]): Promise<void>;
}

export interface PortFilter {
  node_id?: number;
  portgroup_id?: number;
  address?: string;
}

export type PortCreate = Partial<Omit<Port, 'id' | 'created_at' | 'updated_at'>> & { address: string; node_id: number };
export type PortChanges = Partial<Omit<Port, 'id' | 'uuid' | 'created_at' | 'updated_at'>>;

export interface PortRepository {
  /** Throws MACAlreadyExists on a duplicate address. */
  create(values: PortCreate): Promise<Port>;
  /** By UUID, or by name when `ident` is not a UUID. Throws PortNotFound. */
  get(ident: string): Promise<Port>;
  list(filter: PortFilter, page: Page): Promise<Port[]>;
  update(uuid: string, changes: PortChanges): Promise<Port>;
  delete(uuid: string): Promise<void>;
}

export interface PortgroupFilter {
  node_id?: number;
  address?: string;
}
export type PortgroupCreate = Partial<Omit<Portgroup, 'id' | 'created_at' | 'updated_at'>> & { node_id: number };
export type PortgroupChanges = Partial<Omit<Portgroup, 'id' | 'uuid' | 'created_at' | 'updated_at'>>;

export interface PortgroupRepository {
  create(values: PortgroupCreate): Promise<Portgroup>;
  get(ident: string): Promise<Portgroup>;
  list(filter: PortgroupFilter, page: Page): Promise<Portgroup[]>;
  update(uuid: string, changes: PortgroupChanges): Promise<Portgroup>;
  delete(uuid: string): Promise<void>;
}

export type ChassisCreate = Partial<Omit<Chassis, 'id' | 'created_at' | 'updated_at'>>;
export type ChassisChanges = Partial<Omit<Chassis, 'id' | 'uuid' | 'created_at' | 'updated_at'>>;

export interface ChassisRepository {
  create(values: ChassisCreate): Promise<Chassis>;
  get(uuid: string): Promise<Chassis>;
  getById(id: number): Promise<Chassis>;
  list(page: Page): Promise<Chassis[]>;
  update(uuid: string, changes: ChassisChanges): Promise<Chassis>;
  /** Throws ChassisNotEmpty when nodes still belong to it. */
  delete(uuid: string): Promise<void>;
}

export interface ConductorRepository {
  /** Registers (or re-registers) a conductor as online with its hardware types. */
  register(hostname: string, conductorGroup: string, drivers: string[]): Promise<Conductor>;
  /** Records a liveness heartbeat. */
  touch(hostname: string): Promise<void>;
  /** Marks the conductor offline (clean shutdown). */
  unregister(hostname: string): Promise<void>;
  get(hostname: string): Promise<Conductor>;
  list(page: Page): Promise<Conductor[]>;
  /** Online conductors whose last heartbeat is older than `olderThan` (ISO time): they are dead. */
  listStale(olderThan: string): Promise<Conductor[]>;
}

export type HistoryCreate = Omit<HistoryEvent, 'id' | 'uuid' | 'created_at'> & { created_at?: string };

export interface HistoryRepository {
  record(event: HistoryCreate): Promise<HistoryEvent>;
  list(nodeId: number, page: Page): Promise<HistoryEvent[]>;
  get(nodeId: number, uuid: string): Promise<HistoryEvent>;
}

/** The inspection data of a node. */
export interface InventoryRecord {
  inventory: JsonObject;
  plugin_data: JsonObject;
  created_at: string;
  updated_at: string | null;
}

export interface InventoryRepository {
  /** Stores (replacing) the node's inspection data; NodeNotFound when the node is gone. */
  put(nodeId: number, inventory: JsonObject, pluginData: JsonObject): Promise<void>;
  /** The node's inspection data, or null when it was never inspected in band. */
  get(nodeId: number): Promise<InventoryRecord | null>;
}

export type InspectionRuleCreate = Omit<InspectionRuleRecord, 'id' | 'uuid' | 'created_at' | 'updated_at'> & { uuid?: string | null };
export type InspectionRuleChanges = Partial<Omit<InspectionRuleRecord, 'id' | 'uuid' | 'created_at' | 'updated_at'>>;

export interface InspectionRuleRepository {
  /** InspectionRuleAlreadyExists for a taken UUID. */
  create(values: InspectionRuleCreate): Promise<InspectionRuleRecord>;
  /** InspectionRuleNotFound when there is none. */
  get(uuid: string): Promise<InspectionRuleRecord>;
  list(filter: { phase?: string }, page: Page): Promise<InspectionRuleRecord[]>;
  /** Every rule, in creation order (what an inspection runs). */
  all(): Promise<InspectionRuleRecord[]>;
  update(uuid: string, changes: InspectionRuleChanges): Promise<InspectionRuleRecord>;
  delete(uuid: string): Promise<void>;
  /** Deletes every stored rule; returns how many there were. */
  deleteAll(): Promise<number>;
}

export type LegacyRuleCreate = Omit<LegacyRuleRecord, 'id' | 'uuid' | 'created_at'> & { uuid?: string | null };

export interface LegacyRuleRepository {
  create(values: LegacyRuleCreate): Promise<LegacyRuleRecord>;
  get(uuid: string): Promise<LegacyRuleRecord>;
  /** Every rule, in creation order (the order they run in). */
  all(): Promise<LegacyRuleRecord[]>;
  delete(uuid: string): Promise<void>;
  deleteAll(): Promise<number>;
}

/** The storage of one Ingot deployment. */
export interface Store {
  readonly dialect: 'sqlite' | 'postgres';
  readonly nodes: NodeRepository;
  readonly ports: PortRepository;
  readonly portgroups: PortgroupRepository;
  readonly chassis: ChassisRepository;
  readonly conductors: ConductorRepository;
  readonly history: HistoryRepository;
  readonly inventories: InventoryRepository;
  readonly inspectionRules: InspectionRuleRepository;
  readonly legacyRules: LegacyRuleRepository;
  close(): Promise<void>;
}
