/**
 * Resolving identifiers as Ironic does: a node by UUID or (from 1.5) by logical name, a port by UUID or
 * name, names checked against the allowed alphabet, the `.json` suffix older microversions strip from
 * URLs, and the per-request caches a collection needs (chassis UUIDs, conductors).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { NodeRingKey } from '../conductor/client.js';
import type { Node, Port } from '../domain/node.js';
import { fail, IngotError } from '../shared/errors.js';
import { isUuid, normalizeUuid } from '../shared/ids.js';
import type { ApiDeps } from './context.js';
import { parseVersion } from './microversion.js';
import type { NodeContext } from './serialize/node.js';

const LOGICAL_NAME = /^[A-Za-z0-9\-._~]{1,255}$/;
const HOSTNAME_SAFE = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** Ironic's `is_valid_logical_name` (RFC 3986 unreserved characters; hostnames before 1.10). */
export function isValidLogicalName(name: string, minor: number): boolean {
  return minor < 10 ? HOSTNAME_SAFE.test(name) : LOGICAL_NAME.test(name);
}

/** A valid node name: a logical name that is not a UUID. */
export function isValidNodeName(name: string, minor: number): boolean {
  return isValidLogicalName(name, minor) && !isUuid(name);
}

/** Throws InvalidParameterValue unless `value` is a UUID; returns it normalised. */
export function requireUuid(field: string, value: unknown): string {
  if (typeof value !== 'string' || !isUuid(value)) {
    throw fail('uuidExpected', { field, value: typeof value === 'string' ? value : JSON.stringify(value) });
  }
  return normalizeUuid(value);
}

async function findNode(deps: ApiDeps, ident: string, minor: number): Promise<Node> {
  if (isUuid(ident)) return deps.store.nodes.get(normalizeUuid(ident));
  if (minor < 5) throw fail('NodeNotFound', { node: ident });
  if (!isValidLogicalName(ident, minor)) throw fail('logicalNameOrUuidExpected', { name: ident });
  return deps.store.nodes.get(ident);
}

/**
 * The node named by `ident` (UUID, or name from 1.5). Throws NodeNotFound or InvalidParameterValue.
 * `jsonSuffix` (see {@link hadJsonSuffix}) is Ironic's `get_rpc_node_with_suffix`, used by the node's
 * own URL (show, update, delete): the request's `.json` was stripped, so a node not found under `ident`
 * is looked up again as `ident.json`.
 */
export async function getNode(deps: ApiDeps, ident: string, minor: number, jsonSuffix = false): Promise<Node> {
  if (!jsonSuffix) return findNode(deps, ident, minor);
  try {
    return await findNode(deps, ident, minor);
  } catch (err) {
    if (err instanceof IngotError && err.code === 'NodeNotFound') return findNode(deps, `${ident}.json`, minor);
    throw err;
  }
}

/** Ironic's `strutils.is_int_like`: the canonical decimal spelling of an integer. */
const INT_LIKE = /^(0|-?[1-9][0-9]*)$/;

/**
 * The port a `/v1/ports/{port_ident}` URL names (show and update), as Ironic's `Port.get` resolves it:
 * a UUID, else a port name (names came with 1.88; Ironic looks them up at every version). Neither a
 * UUID nor a logical name is a 400. Throws PortNotFound.
 */
export async function getPort(deps: ApiDeps, ident: string): Promise<Port> {
  if (isUuid(ident)) return deps.store.ports.get(normalizeUuid(ident));
  if (!LOGICAL_NAME.test(ident)) throw fail('uuidOrNameExpected', { field: 'port_ident', value: ident });
  // NOTE: Ironic reads an integer-like identifier as its internal database id (`Port.get`), which its
  // API never shows; Ingot has no such lookup. Such a port is not found, as one named so is not in Ironic.
  if (INT_LIKE.test(ident)) throw fail('PortNotFound', { port: ident });
  return deps.store.ports.get(ident);
}

/** Ironic stripped a trailing `.json` from request paths up to this microversion (1.91 stopped it). */
const LAST_JSON_SUFFIX_MINOR = 90;

/**
 * Ironic's `JsonExtensionMiddleware`, for requests below 1.91: a path ending in `.json` (trailing
 * slashes ignored) is routed without it, so `/v1/nodes.json` lists nodes and `/v1/ports/{uuid}.json`
 * shows a port. Returns the URL to route, or undefined when `url` is routed as it is. From 1.91 a
 * `.json` is part of the name (`/v1/nodes/test.json` is the node named `test.json`).
 */
export function stripJsonSuffix(url: string, minor: number): string | undefined {
  if (minor > LAST_JSON_SUFFIX_MINOR) return undefined;
  const q = url.indexOf('?');
  const raw = q < 0 ? url : url.slice(0, q);
  // Ironic's `safe_rstrip(path, '/')`: trailing slashes go, unless nothing would be left.
  const path = raw.replace(/\/+$/, '') || raw;
  if (!path.endsWith('.json')) return undefined;
  return path.slice(0, -'.json'.length) + (q < 0 ? '' : url.slice(q));
}

/** Raw requests whose `.json` suffix {@link rewriteJsonSuffix} stripped. */
const suffixed = new WeakSet<object>();

/**
 * For fastify's `rewriteUrl` (it runs before routing): {@link stripJsonSuffix} at the version the
 * request asks for. A version header that does not parse leaves the URL alone (the request is
 * refused with 406 after routing anyway).
 */
export function rewriteJsonSuffix(req: { url?: string | undefined; headers: IncomingHttpHeaders }): string {
  const url = req.url ?? '/';
  if (!url.includes('.json')) return url;
  let minor: number;
  try {
    minor = parseVersion(req.headers);
  } catch {
    return url;
  }
  const out = stripJsonSuffix(url, minor);
  if (out === undefined) return url;
  suffixed.add(req);
  return out;
}

/** Whether {@link rewriteJsonSuffix} stripped a `.json` from this raw request (Ironic's `HAS_JSON_SUFFIX`). */
export function hadJsonSuffix(raw: object): boolean {
  return suffixed.has(raw);
}

/**
 * Like {@link getNode}, but a missing node is a 400 (the node is a parameter, not the resource), with
 * the message of NodeNotFound, as Ironic answers it (`NodeNotFound(code=BAD_REQUEST)`).
 */
export async function getNodeParam(deps: ApiDeps, ident: string, minor: number): Promise<Node> {
  try {
    return await getNode(deps, ident, minor);
  } catch (err) {
    if (err instanceof IngotError && err.code === 'NodeNotFound') throw fail('NodeNotFound', { node: ident }, { status: 400 });
    throw err;
  }
}

/** The key of a node's place on the hash ring (its conductor depends on these three fields alone). */
const ringKey = (n: NodeRingKey): string => `${n.conductor_group}\u0000${n.driver}\u0000${n.uuid}`;

/**
 * Builds the serialization context for `nodes` (whole nodes or their keys), resolving their chassis UUIDs
 * in one pass and their conductors in one call of the conductor.
 */
export async function nodeContext(
  deps: ApiDeps,
  base: string,
  minor: number,
  nodes: readonly (Pick<Node, 'chassis_id'> & NodeRingKey)[],
): Promise<NodeContext> {
  const chassis = new Map<number, string | null>();
  for (const n of nodes) {
    if (n.chassis_id !== null && !chassis.has(n.chassis_id)) {
      try {
        chassis.set(n.chassis_id, (await deps.store.chassis.getById(n.chassis_id)).uuid);
      } catch {
        chassis.set(n.chassis_id, null);
      }
    }
  }
  const placed = new Map<string, NodeRingKey>();
  for (const n of nodes) placed.set(ringKey(n), { uuid: n.uuid, driver: n.driver, conductor_group: n.conductor_group });
  const keys = [...placed.keys()];
  const hosts = keys.length === 0 ? [] : await deps.conductor.conductorsFor([...placed.values()]);
  if (hosts.length !== keys.length) throw new Error(`the conductor placed ${hosts.length} of ${keys.length} nodes on the hash ring`);
  const conductors = new Map(keys.map((k, i) => [k, hosts[i] as string | null]));
  return {
    base,
    minor,
    chassisUuid: (n) => (n.chassis_id === null ? null : (chassis.get(n.chassis_id) ?? null)),
    conductorFor: (n) => {
      const host = conductors.get(ringKey(n));
      if (host === undefined) throw new Error(`node ${n.uuid} was not placed on the hash ring when its page was read`);
      return host;
    },
  };
}

/** The chassis id for a `chassis_uuid` value (null clears it); a missing chassis is a 400, as in Ironic. */
export async function chassisIdFor(deps: ApiDeps, value: unknown): Promise<number | null> {
  if (value === null || value === undefined || value === '') return null;
  const uuid = requireUuid('chassis_uuid', value);
  try {
    return (await deps.store.chassis.get(uuid)).id;
  } catch (err) {
    if (err instanceof IngotError && err.code === 'ChassisNotFound') throw fail('ChassisNotFound', { chassis: uuid }, { status: 400 });
    throw err;
  }
}
