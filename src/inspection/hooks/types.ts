/**
 * The contract of an inspection hook: a pure function from what is known (the node, its ports, the
 * validated payload, the plugin data earlier hooks produced, the configuration) to the changes it wants.
 * A hook never mutates its input; the runner (`process.ts`) applies each result to a working copy so
 * that later hooks see earlier changes, and returns the combined changes for the caller to persist.
 *
 * Like Ironic's `InspectionHook`, a hook may act in two phases: every enabled hook's `preprocess`
 * runs first (in order), then every hook's `run`. Failures stop processing with the hook's message.
 */
import type { JsonObject, Node } from '../../domain/node.js';
import type { InspectionPayload } from '../../protocol/agent/inventory.js';
import type { InspectorConfig } from '../../config/inspector.js';

/** A port as hooks see it: an existing record (uuid set) or one planned by an earlier hook (uuid null). */
export interface PortView {
  uuid: string | null;
  /** Lower-case MAC address. */
  address: string;
  pxe_enabled: boolean;
  extra: JsonObject;
  local_link_connection: JsonObject;
  physical_network: string | null;
}

/** The port fields hooks may set. */
export type PortFields = Partial<Pick<PortView, 'pxe_enabled' | 'extra' | 'local_link_connection' | 'physical_network'>>;

/** What a hook reads. Everything is read-only. */
export interface HookContext {
  node: Readonly<Pick<Node, 'uuid' | 'properties' | 'extra'>>;
  ports: readonly Readonly<PortView>[];
  payload: Readonly<InspectionPayload>;
  config: Readonly<InspectorConfig>;
  /** Plugin data so far: the payload's plugin keys plus what earlier hooks added (e.g. `valid_interfaces`). */
  pluginData: Readonly<Record<string, unknown>>;
}

/** A message for the node's history / the inspection log. */
export interface HookNote {
  hook: string;
  level: 'info' | 'warning';
  message: string;
}

/** What a hook asks for. Every part is optional; an empty object means "nothing to change". */
export interface HookResult {
  /** Stop processing: inspection fails with this message (Ironic's HardwareInspectionFailure / InvalidNodeInventory). */
  failure?: string;
  /** Keys to set in `node.properties` (a value of `null` removes the key). */
  properties?: JsonObject;
  /** Keys to set in `node.extra` (a value of `null` removes the key). */
  extra?: JsonObject;
  /** Keys to set in the plugin data kept with the inspection (e.g. `parsed_lldp`, `root_disk`); `undefined` removes a key. */
  pluginData?: Record<string, unknown>;
  /** New ports, by MAC address. A MAC that already has a port is left alone (as Ironic's MACAlreadyExists). */
  createPorts?: { address: string; fields: PortFields }[];
  /** Field changes to ports, by MAC address (existing or planned). */
  updatePorts?: { address: string; fields: PortFields }[];
  /** Ports to delete, by MAC address, with the reason for the notes. */
  deletePorts?: { address: string; reason: string }[];
  notes?: { level: 'info' | 'warning'; message: string }[];
}

/** One processing hook. */
export interface InspectionHook {
  /** Ironic's dash name, e.g. `validate-interfaces`. */
  name: string;
  /** Hooks that must be enabled and run before this one. */
  dependencies?: readonly string[];
  preprocess?(ctx: HookContext): HookResult;
  run?(ctx: HookContext): HookResult;
}
