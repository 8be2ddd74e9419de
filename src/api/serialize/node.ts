/**
 * A node as the API shows it at a microversion: fields newer than the version are left out (Ironic's
 * `VERSIONED_FIELDS`), secrets are masked, `available` reads as `null` before 1.2, and `links` plus
 * the sub-resource links are added. Field selection is planned once per request, then each node is a
 * plain loop over getters: no per-request schema work.
 */
import { ownGet } from '../../shared/own-keys.js';
import type { Node } from '../../domain/node.js';
import { INTERFACES } from '../../domain/node.js';
import { fail } from '../../shared/errors.js';
import { selfLinks } from '../links.js';
import { MAX_MINOR } from '../microversion.js';
import { checkFieldsExist } from '../query.js';
import { apiDriverInfo, apiDriverInternalInfo, apiInstanceInfo } from './mask.js';

/** Minor version that introduced each node field (absent: present since 1.1). */
export const NODE_FIELD_VERSIONS: Readonly<Record<string, number>> = {
  driver_internal_info: 3,
  name: 5,
  inspection_finished_at: 6,
  inspection_started_at: 6,
  clean_step: 7,
  raid_config: 12,
  target_raid_config: 12,
  network_interface: 20,
  resource_class: 21,
  boot_interface: 31,
  console_interface: 31,
  deploy_interface: 31,
  inspect_interface: 31,
  management_interface: 31,
  power_interface: 31,
  raid_interface: 31,
  vendor_interface: 31,
  storage_interface: 33,
  traits: 37,
  rescue_interface: 38,
  bios_interface: 40,
  fault: 42,
  deploy_step: 44,
  conductor_group: 46,
  automated_clean: 47,
  protected: 48,
  protected_reason: 48,
  conductor: 49,
  owner: 50,
  description: 51,
  allocation_uuid: 52,
  retired: 61,
  retired_reason: 61,
  lessee: 65,
  network_data: 66,
  boot_mode: 75,
  secure_boot: 75,
  shard: 82,
  parent_node: 83,
  firmware_interface: 86,
  service_step: 87,
  disable_power_off: 95,
};

/** Per-request values a node's serialization needs besides the node. */
export interface NodeContext {
  base: string;
  chassisUuid(node: Pick<Node, 'chassis_id'>): string | null;
  /** The conductor managing the node (by the hash ring, from these fields alone). */
  conductorFor(node: Pick<Node, 'uuid' | 'driver' | 'conductor_group'>): string | null;
  minor: number;
}

type Getter = (n: Node, ctx: NodeContext) => unknown;

/** A provision state as clients of `minor` know it: `available` was null before 1.2, `inspect wait` was `inspecting` before 1.39. */
export function wireProvisionState(state: Node['provision_state'], minor: number): string | null {
  if (minor < 2 && state === 'available') return null;
  if (minor < 39 && state === 'inspect wait') return 'inspecting';
  return state;
}

/** Getters that read the node field of the same name; compiled serializers read those directly. */
const DIRECT = new Set<string>();
const plain = (key: keyof Node): Getter => {
  DIRECT.add(key);
  return (n) => n[key];
};

const GETTERS: Record<string, Getter> = {
  uuid: plain('uuid'),
  name: plain('name'),
  driver: plain('driver'),
  driver_info: (n) => apiDriverInfo(n.driver_info),
  driver_internal_info: (n) => apiDriverInternalInfo(n.driver_internal_info),
  properties: plain('properties'),
  instance_info: (n) => apiInstanceInfo(n.instance_info),
  instance_uuid: plain('instance_uuid'),
  chassis_uuid: (n, ctx) => ctx.chassisUuid(n),
  extra: plain('extra'),
  owner: plain('owner'),
  lessee: plain('lessee'),
  description: plain('description'),
  resource_class: plain('resource_class'),
  conductor_group: plain('conductor_group'),
  conductor: (n, ctx) => ctx.conductorFor(n),
  shard: plain('shard'),
  parent_node: plain('parent_node'),
  power_state: plain('power_state'),
  target_power_state: plain('target_power_state'),
  provision_state: (n, ctx) => wireProvisionState(n.provision_state, ctx.minor),
  target_provision_state: plain('target_provision_state'),
  provision_updated_at: plain('provision_updated_at'),
  maintenance: plain('maintenance'),
  maintenance_reason: plain('maintenance_reason'),
  fault: plain('fault'),
  last_error: plain('last_error'),
  reservation: plain('reservation'),
  console_enabled: plain('console_enabled'),
  inspection_started_at: plain('inspection_started_at'),
  inspection_finished_at: plain('inspection_finished_at'),
  raid_config: plain('raid_config'),
  target_raid_config: plain('target_raid_config'),
  clean_step: plain('clean_step'),
  deploy_step: plain('deploy_step'),
  service_step: plain('service_step'),
  protected: plain('protected'),
  protected_reason: plain('protected_reason'),
  retired: plain('retired'),
  retired_reason: plain('retired_reason'),
  automated_clean: plain('automated_clean'),
  disable_power_off: plain('disable_power_off'),
  allocation_uuid: () => null,
  network_data: plain('network_data'),
  boot_mode: plain('boot_mode'),
  secure_boot: plain('secure_boot'),
  traits: plain('traits'),
  created_at: plain('created_at'),
  updated_at: plain('updated_at'),
};
for (const iface of INTERFACES) GETTERS[`${iface}_interface`] = plain(`${iface}_interface`);

/** Every data field of a node (without links). */
export const NODE_FIELDS: readonly string[] = Object.keys(GETTERS).sort();

/** Link-valued fields shown when all fields are returned, with the version that added each. */
const LINK_FIELDS: Readonly<Record<string, number>> = { ports: 1, states: 14, portgroups: 24, volume: 32 };

const KNOWN = new Set([...NODE_FIELDS, 'links', ...Object.keys(LINK_FIELDS)]);

/** Fields of `GET /v1/nodes` without `detail` or `fields` (Ironic's `_DEFAULT_RETURN_FIELDS`). */
export const NODE_DEFAULT_FIELDS = ['instance_uuid', 'maintenance', 'power_state', 'provision_state', 'uuid', 'name'] as const;

/** The minor version that brought `field` (1 for the original fields and for names that are no field). */
export function nodeFieldMinor(field: string): number {
  return (ownGet(NODE_FIELD_VERSIONS, field) as number | undefined) ?? 1;
}

/** True when `field` exists at `minor`. */
export function nodeFieldAllowed(field: string, minor: number): boolean {
  return minor >= nodeFieldMinor(field);
}

/** A planned serialization: which data fields, and whether link fields are added. */
export interface NodePlan {
  fields: string[];
  withLinks: boolean;
}

const FULL_PLANS = new Map<number, NodePlan>();

/**
 * Plans which fields to return. `requested` undefined means all; requested fields must exist (400)
 * and be allowed at the version (406), as Ironic's `check_allowed_fields` rules.
 */
export function planNode(minor: number, requested: readonly string[] | undefined, explicit = true): NodePlan {
  if (requested === undefined) {
    let plan = FULL_PLANS.get(minor);
    if (!plan) FULL_PLANS.set(minor, (plan = { fields: NODE_FIELDS.filter((f) => nodeFieldAllowed(f, minor)), withLinks: true }));
    return plan;
  }
  if (explicit) {
    checkFieldsExist(requested, KNOWN);
    for (const f of requested) {
      if (!nodeFieldAllowed(f, minor)) throw fail('fieldNotAvailable', { field: f, minor, min: nodeFieldMinor(f) });
    }
  }
  return { fields: [...new Set(requested)].filter((f) => Object.hasOwn(GETTERS, f) && nodeFieldAllowed(f, minor)), withLinks: false };
}

type Serializer = (n: Node, ctx: NodeContext) => Record<string, unknown>;

const SAFE_NAME = /^[a-z_]+$/;
const compiled = new Map<string, Serializer>();

/**
 * Builds (once per field list) a function returning the node as one object literal: plain fields are
 * read directly, the others through their getter. One fixed object shape per plan keeps building and
 * JSON-encoding large lists fast, without a schema compiler.
 */
function compile(plan: NodePlan, minor: number): Serializer {
  const key = `${minor}|${plan.withLinks ? 1 : 0}|${plan.fields.join(',')}`;
  let fn = compiled.get(key);
  if (fn) return fn;
  const parts: string[] = [];
  for (const f of plan.fields) {
    if (!SAFE_NAME.test(f)) throw new Error(`unexpected node field name ${f}`);
    parts.push(DIRECT.has(f) ? `${f}: n.${f}` : `${f}: G.${f}(n, ctx)`);
  }
  parts.push(`links: L(ctx.base, 'nodes', n.uuid)`);
  if (plan.withLinks) {
    parts.push(`ports: L(ctx.base, 'nodes', n.uuid + '/ports')`);
    if (minor >= 14) parts.push(`states: L(ctx.base, 'nodes', n.uuid + '/states')`);
    if (minor >= 24) parts.push(`portgroups: L(ctx.base, 'nodes', n.uuid + '/portgroups')`);
    if (minor >= 32) parts.push(`volume: L(ctx.base, 'nodes', n.uuid + '/volume')`);
  }
  // Field names come from the fixed GETTERS table (checked above), never from the request.
  fn = new Function('G', 'L', `return function serializeNode(n, ctx) { return { ${parts.join(', ')} }; };`)(GETTERS, selfLinks) as Serializer;
  if (compiled.size < 1000) compiled.set(key, fn);
  return fn;
}

/** The API representation of `node` following `plan`. */
export function serializeNode(node: Node, plan: NodePlan, ctx: NodeContext): Record<string, unknown> {
  return compile(plan, ctx.minor)(node, ctx);
}

/** Serializes many nodes with one compiled serializer. */
export function serializeNodes(nodes: readonly Node[], plan: NodePlan, ctx: NodeContext): Record<string, unknown>[] {
  const fn = compile(plan, ctx.minor);
  const out = new Array<Record<string, unknown>>(nodes.length);
  for (let i = 0; i < nodes.length; i++) out[i] = fn(nodes[i] as Node, ctx);
  return out;
}

/**
 * Nodes per piece of a streamed node page: about 46 KB of JSON for detailed nodes, small enough for
 * the socket to take each piece at once and for its buffer to come from the ordinary heap.
 */
export const NODE_PAGE_CHUNK = 20;

/**
 * A node collection page `{"nodes": [...], "next": ...}` as JSON text in pieces of `chunk` nodes, the
 * same text as `JSON.stringify({ nodes: serializeNodes(...), next })` (no `next` key when undefined).
 * The generator takes `nodes` over and empties it as it goes, so only the nodes not yet rendered and
 * one piece's objects and text are alive at a time: a large page is never held whole.
 */
export function* nodePageJson(
  nodes: Node[],
  plan: NodePlan,
  ctx: NodeContext,
  next: string | undefined,
  chunk: number = NODE_PAGE_CHUNK,
): Generator<string, void, undefined> {
  const fn = compile(plan, ctx.minor);
  const tail = next === undefined ? ']}' : `],"next":${JSON.stringify(next)}}`;
  const step = Math.max(1, Math.floor(chunk));
  let head = '{"nodes":[';
  while (nodes.length > 0) {
    const batch = nodes.splice(0, step);
    const part = new Array<Record<string, unknown>>(batch.length);
    for (let i = 0; i < batch.length; i++) part[i] = fn(batch[i] as Node, ctx);
    // `JSON.stringify(part)` is `[a,b,...]`: drop its brackets and join it to the previous piece.
    const text = JSON.stringify(part);
    yield head + text.slice(1, -1) + (nodes.length === 0 ? tail : '');
    head = ',';
  }
  if (head !== ',') yield head + tail;
}

/** Renders nodes following one plan at one version as JSON text; built once per page. */
export interface NodeJsonRenderer {
  /** One node's text: exactly its element of a {@link nodePageJson} page (a flat string of its own). */
  one(node: Node, ctx: NodeContext): string;
  /** The elements of several nodes joined by commas, in one `JSON.stringify` call. */
  many(nodes: readonly Node[], ctx: NodeContext): string;
}

/** The {@link NodeJsonRenderer} of `plan` at `minor`. */
export function nodeJsonRenderer(plan: NodePlan, minor: number): NodeJsonRenderer {
  const fn = compile(plan, minor);
  return {
    one: (node, ctx) => JSON.stringify(fn(node, ctx)),
    many: (nodes, ctx) => {
      const part = new Array<Record<string, unknown>>(nodes.length);
      for (let i = 0; i < nodes.length; i++) part[i] = fn(nodes[i] as Node, ctx);
      return JSON.stringify(part).slice(1, -1);
    },
  };
}

/** Characters per piece of a page streamed by {@link nodeTextPageJson}: about 20 detailed nodes. */
export const NODE_PAGE_PIECE_CHARS = 48 * 1024;

/**
 * A node collection page from the JSON texts of its nodes, each item of `texts` the text of one node
 * or of several joined by commas (as {@link NodeJsonRenderer} renders them), in pieces of about
 * `pieceChars` characters: the same text {@link nodePageJson} produces for those nodes. Texts are
 * pulled from `texts` as the stream drains, so a lazily rendered one is built only when it is sent.
 */
export async function* nodeTextPageJson(
  texts: Iterable<string> | AsyncIterable<string>,
  next: string | undefined,
  pieceChars: number = NODE_PAGE_PIECE_CHARS,
): AsyncGenerator<string, void, undefined> {
  let head = '{"nodes":[';
  let batch: string[] = [];
  let chars = 0;
  for await (const text of texts) {
    batch.push(text);
    chars += text.length;
    if (chars >= pieceChars) {
      yield head + batch.join(',');
      head = ',';
      batch = [];
      chars = 0;
    }
  }
  const tail = next === undefined ? ']}' : `],"next":${JSON.stringify(next)}}`;
  yield (batch.length > 0 ? head + batch.join(',') : head === ',' ? '' : head) + tail;
}

/**
 * The node as a JSON Patch sees it: every field the version allows, unmasked (the patch may touch a
 * secret), with `chassis_uuid` resolved.
 */
export function patchableView(node: Node, ctx: NodeContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // Values as the newest version shows them (a patch is checked against the request's version elsewhere).
  const newest = { ...ctx, minor: MAX_MINOR };
  for (const f of NODE_FIELDS) {
    if (f === 'driver_info') out[f] = structuredClone(node.driver_info);
    else if (f === 'instance_info') out[f] = structuredClone(node.instance_info);
    else out[f] = structuredClone((GETTERS[f] as Getter)(node, newest));
  }
  return out;
}
