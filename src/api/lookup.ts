/**
 * Resolving identifiers as Ironic does: a node by UUID or (from 1.5) by logical name, names checked
 * against the allowed alphabet, and the per-request caches a collection needs (chassis UUIDs).
 */
import type { Node } from '../domain/node.js';
import { fail, IngotError } from '../shared/errors.js';
import { isUuid, normalizeUuid } from '../shared/ids.js';
import type { ApiDeps } from './context.js';
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
    throw fail('InvalidParameterValue', `Expected UUID for ${field}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  }
  return normalizeUuid(value);
}

/** The node named by `ident` (UUID, or name from 1.5). Throws NodeNotFound or InvalidParameterValue. */
export async function getNode(deps: ApiDeps, ident: string, minor: number): Promise<Node> {
  if (isUuid(ident)) return deps.store.nodes.get(normalizeUuid(ident));
  if (minor < 5) throw fail('NodeNotFound', `Node ${ident} could not be found.`);
  if (!isValidLogicalName(ident, minor)) throw fail('InvalidParameterValue', `Expected a logical name or UUID but received ${ident}.`);
  return deps.store.nodes.get(ident);
}

/** Like {@link getNode}, but a missing node is a 400 (the node is a parameter, not the resource). */
export async function getNodeParam(deps: ApiDeps, field: string, ident: string, minor: number): Promise<Node> {
  try {
    return await getNode(deps, ident, minor);
  } catch (err) {
    if (err instanceof IngotError && err.code === 'NodeNotFound') throw fail('InvalidParameterValue', `${field}: ${err.message}`);
    throw err;
  }
}

/** Builds the serialization context for `nodes` (whole nodes or their keys), resolving their chassis UUIDs in one pass. */
export async function nodeContext(
  deps: ApiDeps,
  base: string,
  minor: number,
  nodes: readonly Pick<Node, 'chassis_id'>[],
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
  const conductor = deps.conductor;
  return {
    base,
    minor,
    chassisUuid: (n) => (n.chassis_id === null ? null : (chassis.get(n.chassis_id) ?? null)),
    conductorFor: (n) => conductor.conductorFor(n),
  };
}

/** The chassis id for a `chassis_uuid` value (null clears it); a missing chassis is a 400. */
export async function chassisIdFor(deps: ApiDeps, value: unknown): Promise<number | null> {
  if (value === null || value === undefined || value === '') return null;
  const uuid = requireUuid('chassis_uuid', value);
  try {
    return (await deps.store.chassis.get(uuid)).id;
  } catch (err) {
    if (err instanceof IngotError && err.code === 'ChassisNotFound') throw fail('InvalidParameterValue', `Chassis ${uuid} could not be found.`);
    throw err;
  }
}
