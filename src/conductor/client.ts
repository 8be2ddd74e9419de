/**
 * The conductor contract: the one interface through which the API asks the conductor to act. The API
 * reads the database itself but never changes a node's state and never calls a driver: every change that
 * needs the node lock or a driver goes through here (in-process in `ingot serve`; over JSON-RPC between
 * `ingot api` and `ingot conductor`).
 *
 * The contract is sealed: this file owns its request and answer types, built from the domain's records
 * and the wire bodies of `protocol/` alone, and imports nothing of the conductor's insides, the drivers
 * or the database (lint keeps the API from importing any other file of `conductor/`). Every call is
 * plain data: its arguments and its answer are JSON values (no functions, Dates, Maps, class instances
 * or `undefined` inside them; an optional argument or field is left out), and it fails with an
 * `IngotError` (`shared/errors.ts`), whose code and message are all that cross a process boundary.
 * `conductor/json-transport.ts` carries the calls as JSON and refuses anything that would not survive.
 * Who made a call travels with it as plain data too: the caller's request context (`shared/request-context.ts`:
 * request id, user, project, roles), which the conductor records as the history's `user`; the JSON
 * transport carries it as the `context` member of each request.
 *
 * Calls that start background work (power, provision, …) resolve once the work is accepted: the lock
 * was taken, the state checked and a worker started. They reject with IngotError: NodeLocked (409),
 * NoFreeConductorWorkers (503), InvalidStateRequested (400), …
 */
import type { BootDevice, BootMode, InterfaceName, JsonObject, Node, Port, Portgroup, VmediaDeviceType } from '../domain/node.js';
import type { ProvisionVerb } from '../domain/states.js';
import type { HeartbeatRequest } from '../protocol/agent/lookup.js';
import type { IMAGE_DOWNLOAD_SOURCES, VmediaAttachBody } from '../protocol/api/bodies.js';
import type { RequestedStep } from '../protocol/api/steps.js';

/** The fields of a new node: any of the record's own (not the id, stamps and version the store keeps), `driver` required. */
export type NodeCreate = Partial<Omit<Node, 'id' | 'created_at' | 'updated_at' | 'version'>> & { driver: string };
/** Changes to a node's fields; a field left out is left alone. */
export type NodeChanges = Partial<Omit<Node, 'id' | 'uuid' | 'created_at' | 'updated_at' | 'version'>>;
/** The fields of a new port: the address and the node's id required. */
export type PortCreate = Partial<Omit<Port, 'id' | 'created_at' | 'updated_at'>> & { address: string; node_id: number };
/** Changes to a port's fields; a field left out is left alone. */
export type PortChanges = Partial<Omit<Port, 'id' | 'uuid' | 'created_at' | 'updated_at'>>;
/** The fields of a new port group: the node's id required. */
export type PortgroupCreate = Partial<Omit<Portgroup, 'id' | 'created_at' | 'updated_at'>> & { node_id: number };
/** Changes to a port group's fields; a field left out is left alone. */
export type PortgroupChanges = Partial<Omit<Portgroup, 'id' | 'uuid' | 'created_at' | 'updated_at'>>;

/** What places a node on the hash ring of its conductors. */
export type NodeRingKey = Pick<Node, 'uuid' | 'driver' | 'conductor_group'>;

/** Where the BMC fetches an attached image from (`image_download_source` of `POST …/vmedia`). */
export type ImageDownloadSource = (typeof IMAGE_DOWNLOAD_SOURCES)[number];

/** `POST /v1/nodes/{node}/vmedia` (1.89) as the API checked it, with Ironic's default source (`local`) filled in. */
export type VirtualMediaAttach = Required<VmediaAttachBody>;

/** What the agent lookup answers (`GET /v1/lookup`). */
export interface AgentLookup {
  node: Node;
  /** The token the first time, `******` (HIDDEN_AGENT_TOKEN) after. */
  token: string;
  heartbeatTimeoutS: number;
}

/** A power state change `PUT …/states/power` may ask for. */
export type PowerTarget = 'power on' | 'power off' | 'rebooting' | 'soft power off' | 'soft rebooting';

/**
 * The arguments of a provision verb, checked by the API against `protocol/api/` (which verb takes which,
 * the step schemas, a non-blank rescue password); the conductor checks the node's state.
 */
export interface ProvisionOptions {
  /** A gzipped, base64-encoded ISO or a URL, or (1.56) the JSON to build one from. */
  configdrive?: string | JsonObject;
  clean_steps?: RequestedStep[];
  deploy_steps?: RequestedStep[];
  service_steps?: RequestedStep[];
  /** Given (and not blank) for `rescue`. */
  rescue_password?: string;
  disable_ramdisk?: boolean;
}

/**
 * One virtual media device of the machine as `GET /v1/nodes/{node}/vmedia` (1.93) lists it: Ironic's
 * redfish `get_vmedia` keys, with the Redfish MediaTypes (`CD`, `DVD`, `Floppy`, `USBStick`, …).
 */
export interface VirtualMediaInfo {
  media_types: string[];
  /** Whether media is inserted; null when the BMC does not say. */
  inserted: boolean | null;
  /** URL of the inserted image; null when none. */
  image: string | null;
}

/** Result of `validate` for one interface: `result` null means the interface is not applicable. */
export interface InterfaceValidation {
  result: boolean | null;
  reason: string | null;
}

export interface DriverInfo {
  name: string;
  /** Conductors that serve this hardware type. */
  hosts: string[];
  /** Per interface: the enabled implementations and the default. */
  interfaces: Record<InterfaceName, { enabled: string[]; default: string }>;
}

export interface BootDeviceState {
  boot_device: BootDevice | null;
  persistent: boolean | null;
}

export interface ConsoleState {
  console_enabled: boolean;
  console_info: { type: string; url: string } | null;
}

export interface ConductorClient {
  createNode(values: NodeCreate): Promise<Node>;
  /** Applies field changes under the node lock, enforcing which fields may change in which states. */
  updateNode(ident: string, changes: NodeChanges): Promise<Node>;
  /** Deletes the node (only in DELETE_ALLOWED_STATES or maintenance; never when protected). */
  destroyNode(ident: string): Promise<void>;

  setPowerState(ident: string, target: PowerTarget, timeoutSeconds?: number): Promise<void>;
  doProvisionAction(ident: string, verb: ProvisionVerb, options: ProvisionOptions): Promise<void>;
  validate(ident: string): Promise<Record<InterfaceName, InterfaceValidation>>;
  setMaintenance(ident: string, enabled: boolean, reason?: string | null): Promise<void>;

  getBootDevice(ident: string): Promise<BootDeviceState>;
  setBootDevice(ident: string, device: BootDevice, persistent: boolean): Promise<void>;
  getSupportedBootDevices(ident: string): Promise<BootDevice[]>;
  /**
   * Sends an NMI now (synchronous, under the node lock). UnsupportedDriverExtension when the management
   * interface has none; a BMC failure is a DriverOperationError (500) with the BMC's message.
   */
  injectNmi(ident: string): Promise<void>;
  /**
   * `POST /v1/continue_inspection`: validates the agent's data, finds its node (MACs, BMC address, or
   * `nodeUuid`), locks it and starts processing; resolves with the node's UUID. InvalidParameterValue for
   * bad data, InspectionLookupFailed / InspectionLookupAmbiguous, InvalidState, NodeLocked.
   */
  continueInspection(body: unknown, nodeUuid?: string): Promise<string>;
  /**
   * `GET /v1/lookup`: the node an agent serves, by its MACs (`nodeUuid` only narrows the match), with the
   * agent token the first time (`******` after). NodeNotFound when no single node in an agent state matches; NodeLocked while busy.
   */
  lookupAgent(macs: readonly string[], nodeUuid?: string): Promise<AgentLookup>;
  /** `POST /v1/heartbeat/{node}` (checked by the API): InvalidParameterValue for a wrong token or a changed URL; NodeLocked while busy. */
  agentHeartbeat(ident: string, heartbeat: HeartbeatRequest): Promise<void>;
  /**
   * Starts a boot mode change (`PUT …/states/boot_mode`, 202): InvalidState (409) while the node is
   * transitioning, InvalidParameterValue for a mode the interface does not offer, UnsupportedDriverExtension
   * without boot modes. The worker records the mode in `boot_mode`, or the failure in `last_error`.
   */
  setBootMode(ident: string, mode: BootMode): Promise<void>;
  /** `PUT …/states/secure_boot`: refused as `setBootMode` is; no Ingot driver supports it yet (UnsupportedDriverExtension). */
  setSecureBoot(ident: string, enabled: boolean): Promise<void>;

  /**
   * `GET …/vmedia` (1.93): the machine's virtual media devices, read under a shared lock.
   * UnsupportedDriverExtension without virtual media; InvalidParameterValue when the BMC has no device.
   */
  getVirtualMedia(ident: string): Promise<VirtualMediaInfo[]>;
  /**
   * Starts attaching an image (`POST …/vmedia`, 1.89): accepted once the node is locked, its management
   * validated and a worker reserved (NodeLocked, NoFreeConductorWorkers, UnsupportedDriverExtension,
   * InvalidParameterValue); last_error is cleared, and a failure of the worker is written there.
   */
  attachVirtualMedia(ident: string, request: VirtualMediaAttach): Promise<void>;
  /** Starts detaching the listed device types, or all when undefined (`DELETE …/vmedia`); accepted as `attachVirtualMedia`. */
  detachVirtualMedia(ident: string, deviceTypes?: readonly VmediaDeviceType[]): Promise<void>;

  setTargetRaidConfig(ident: string, config: JsonObject): Promise<void>;
  getConsole(ident: string): Promise<ConsoleState>;
  setConsoleMode(ident: string, enabled: boolean): Promise<void>;

  setTraits(ident: string, traits: string[]): Promise<string[]>;
  addTrait(ident: string, trait: string): Promise<void>;
  removeTrait(ident: string, trait: string): Promise<void>;

  createPort(values: PortCreate): Promise<Port>;
  updatePort(uuid: string, changes: PortChanges): Promise<Port>;
  destroyPort(uuid: string): Promise<void>;
  createPortgroup(values: PortgroupCreate): Promise<Portgroup>;
  updatePortgroup(uuid: string, changes: PortgroupChanges): Promise<Portgroup>;
  destroyPortgroup(uuid: string): Promise<void>;

  listDrivers(): Promise<DriverInfo[]>;
  /** Throws DriverNotFound. */
  getDriver(name: string): Promise<DriverInfo>;
  /** `driver_info` keys documented by the driver's default interfaces: key -> description. */
  driverProperties(name: string): Promise<Record<string, string>>;
  /**
   * The conductor that manages each node (by the hash ring of its driver and conductor group), in the
   * order given; null for a node no live conductor serves. One call for a whole page of nodes.
   */
  conductorsFor(nodes: readonly NodeRingKey[]): Promise<Array<string | null>>;
}
