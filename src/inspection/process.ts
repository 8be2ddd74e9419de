/**
 * Runs the enabled inspection hooks over a validated payload for one node and its ports, and returns one
 * combined result: the node's new `properties` / `extra`, the port operations, the plugin data to keep,
 * notes for the history, and how long each hook took. Pure: nothing is persisted or mutated; the caller
 * (the conductor) applies the result under the node lock.
 *
 * As in Ironic, every hook's `preprocess` runs first, then every hook's `run`, each in configured order;
 * each hook sees the changes of the hooks before it (properties, planned ports, plugin data). The first
 * failure stops processing and the result carries only the failure, the notes so far and the timings —
 * nothing is half-applied (Ironic may have saved some hooks' changes by then).
 */
import type { Json, JsonObject, Node, Port } from '../domain/node.js';
import type { InspectionPayload } from '../protocol/agent/inventory.js';
import { fail, messageOf } from '../shared/errors.js';
import type { InspectorConfig } from '../config/inspector.js';
import { HOOKS_BY_NAME, UNSUPPORTED_HOOKS } from './hooks/all-hooks.js';
import { parseCidrMap } from './hooks/physical-network.js';
import type { HookContext, HookNote, HookResult, InspectionHook, PortFields, PortView } from './hooks/types.js';

/** A port to create. */
export interface PortCreation {
  address: string;
  pxe_enabled: boolean;
  extra: JsonObject;
  local_link_connection: JsonObject;
  physical_network: string | null;
}

/** Field changes to an existing port. */
export interface PortChange {
  uuid: string;
  address: string;
  changes: PortFields;
}

/** An existing port to delete. */
export interface PortDeletion {
  uuid: string;
  address: string;
  reason: string;
}

/** Time spent in one hook (both phases), in milliseconds. */
export interface HookTiming {
  hook: string;
  ms: number;
}

/** The outcome of processing. */
export type ProcessResult =
  | {
    ok: true;
    /** Only the fields that changed, each as its complete new value. */
    node: { properties?: JsonObject; extra?: JsonObject };
    ports: { create: PortCreation[]; update: PortChange[]; delete: PortDeletion[] };
    /** What Ironic calls plugin data: the payload without `inventory`, plus what the hooks added. */
    pluginData: Record<string, unknown>;
    notes: HookNote[];
    timings: HookTiming[];
    totalMs: number;
  }
  | {
    ok: false;
    failure: { hook: string; message: string };
    notes: HookNote[];
    timings: HookTiming[];
    totalMs: number;
  };

export interface ProcessInput {
  node: Pick<Node, 'uuid' | 'properties' | 'extra'>;
  /** The node's ports. */
  ports: readonly Pick<Port, 'uuid' | 'address' | 'pxe_enabled' | 'extra' | 'local_link_connection' | 'physical_network'>[];
  /** A payload that passed `validateInspectionPayload`. */
  payload: InspectionPayload;
  config: InspectorConfig;
}

/**
 * The hooks `names` select, in that order. @throws IngotError ConfigInvalid for an unknown or duplicate
 * name, or a hook listed before (or without) a hook it depends on.
 */
export function resolveHooks(names: readonly string[]): InspectionHook[] {
  const seen = new Set<string>();
  return names.map((name, i) => {
    const hook = HOOKS_BY_NAME.get(name);
    if (!hook) {
      const unsupported = (UNSUPPORTED_HOOKS as readonly string[]).includes(name);
      throw fail(unsupported ? 'hookUnsupported' : 'hookUnknown', { index: i, name, available: [...HOOKS_BY_NAME.keys()].join(', ') });
    }
    if (seen.has(name)) throw fail('hookListedTwice', { index: i, name });
    for (const dep of hook.dependencies ?? []) {
      if (!seen.has(dep)) throw fail('hookDependencyLate', { index: i, name, dependency: dep });
    }
    seen.add(name);
    return hook;
  });
}

/**
 * Checks the `[inspector]` configuration group once, at start-up: the hook list resolves and the CIDR map parses.
 * Returns the resolved hooks for {@link processInspection}. @throws IngotError ConfigInvalid.
 */
export function checkInspectorConfig(config: InspectorConfig): InspectionHook[] {
  const hooks = resolveHooks(config.hooks);
  parseCidrMap(config.physical_network_cidr_map);
  return hooks;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function setKeys(target: JsonObject, changes: JsonObject): void {
  for (const [k, v] of Object.entries(changes)) {
    if (v === null) delete target[k];
    else target[k] = structuredClone(v) as Json;
  }
}

/**
 * Runs the configured hooks (or `hooks`, when given) over one node; see the module comment. Bad data or
 * a hook that throws yields a failure result, never an exception; only an invalid hook list in the
 * configuration throws (IngotError ConfigInvalid, from {@link resolveHooks}).
 */
export function processInspection(input: ProcessInput, hooks: readonly InspectionHook[] = resolveHooks(input.config.hooks)): ProcessResult {
  const started = performance.now();
  const properties = structuredClone(input.node.properties);
  const extra = structuredClone(input.node.extra);
  const original = new Map(input.ports.map((p) => [p.address, p]));
  const ports = new Map<string, PortView>(input.ports.map((p) => [p.address, {
    uuid: p.uuid, address: p.address, pxe_enabled: p.pxe_enabled, extra: structuredClone(p.extra),
    local_link_connection: structuredClone(p.local_link_connection), physical_network: p.physical_network,
  }]));
  const deletions: PortDeletion[] = [];
  const { inventory: _inventory, ...plugin } = input.payload;
  const pluginData: Record<string, unknown> = { ...plugin };
  const notes: HookNote[] = [];
  const spent = new Map<string, number>();

  const context = (): HookContext => ({
    node: { uuid: input.node.uuid, properties, extra },
    ports: [...ports.values()],
    payload: input.payload,
    config: input.config,
    pluginData,
  });

  const apply = (hook: string, r: HookResult): void => {
    for (const n of r.notes ?? []) notes.push({ hook, ...n });
    if (r.properties) setKeys(properties, r.properties);
    if (r.extra) setKeys(extra, r.extra);
    for (const [k, v] of Object.entries(r.pluginData ?? {})) {
      if (v === undefined) delete pluginData[k];
      else pluginData[k] = v;
    }
    for (const c of r.createPorts ?? []) {
      if (ports.has(c.address)) continue;
      ports.set(c.address, { uuid: null, address: c.address, pxe_enabled: true, extra: {}, local_link_connection: {}, physical_network: null, ...structuredClone(c.fields) });
    }
    for (const u of r.updatePorts ?? []) {
      const port = ports.get(u.address);
      if (port) Object.assign(port, structuredClone(u.fields));
    }
    for (const d of r.deletePorts ?? []) {
      const port = ports.get(d.address);
      if (!port) continue;
      ports.delete(d.address);
      if (port.uuid !== null) {
        deletions.push({ uuid: port.uuid, address: port.address, reason: d.reason });
        notes.push({ hook, level: 'info', message: `port ${port.address} deleted: ${d.reason}` });
      }
    }
  };

  const timings = (): HookTiming[] => hooks.map((h) => ({ hook: h.name, ms: Math.round((spent.get(h.name) ?? 0) * 1000) / 1000 }));
  const total = () => Math.round((performance.now() - started) * 1000) / 1000;

  for (const phase of ['preprocess', 'run'] as const) {
    for (const hook of hooks) {
      const fn = hook[phase];
      if (!fn) continue;
      const t0 = performance.now();
      let result: HookResult;
      try {
        result = fn.call(hook, context());
      } catch (err) {
        result = { failure: `hook ${hook.name} failed: ${messageOf(err)}` };
      }
      spent.set(hook.name, (spent.get(hook.name) ?? 0) + performance.now() - t0);
      if (result.failure !== undefined) {
        for (const n of result.notes ?? []) notes.push({ hook: hook.name, ...n });
        return { ok: false, failure: { hook: hook.name, message: result.failure }, notes, timings: timings(), totalMs: total() };
      }
      apply(hook.name, result);
    }
  }

  const create: PortCreation[] = [];
  const update: PortChange[] = [];
  for (const port of ports.values()) {
    const { uuid, address, ...fields } = port;
    if (uuid === null) {
      create.push({ address, ...fields });
      continue;
    }
    const before = original.get(address)!;
    const changes: PortFields = {};
    if (fields.pxe_enabled !== before.pxe_enabled) changes.pxe_enabled = fields.pxe_enabled;
    if (!same(fields.extra, before.extra)) changes.extra = fields.extra;
    if (!same(fields.local_link_connection, before.local_link_connection)) changes.local_link_connection = fields.local_link_connection;
    if (fields.physical_network !== before.physical_network) changes.physical_network = fields.physical_network;
    if (Object.keys(changes).length > 0) update.push({ uuid, address, changes });
  }
  const node: { properties?: JsonObject; extra?: JsonObject } = {};
  if (!same(properties, input.node.properties)) node.properties = properties;
  if (!same(extra, input.node.extra)) node.extra = extra;
  return { ok: true, node, ports: { create, update, delete: deletions }, pluginData, notes, timings: timings(), totalMs: total() };
}
