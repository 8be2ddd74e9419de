/**
 * Turning what a client sends for a node (a create body, or the fields a patch changed) into the
 * values the conductor contract takes (`NodeCreate`, `NodeChanges`), with Ironic's checks: version gating (406), names, UUIDs,
 * boolean spellings, conductor groups, chassis.
 */
import type { NodeChanges, NodeCreate } from '../conductor/client.js';
import { NodeCreateBody, NodePatchedBody } from '../protocol/api/bodies.js';
import { fail } from '../shared/errors.js';
import type { ApiDeps } from './context.js';
import { chassisIdFor, isValidNodeName, requireUuid } from './resolve.js';
import { toBool } from '../shared/strict-bool.js';
import { nodeFieldAllowed, nodeFieldMinor } from './serialize/node.js';
import { checkBody, checkChanged } from './validate.js';

const BOOL_FIELDS = new Set(['automated_clean', 'console_enabled', 'disable_power_off', 'maintenance', 'retired', 'secure_boot', 'protected']);
const DICT_FIELDS = new Set(['driver_info', 'extra', 'instance_info', 'properties', 'network_data']);
const NON_NULL_BOOLS = new Set(['maintenance', 'protected', 'retired', 'console_enabled', 'disable_power_off']);
const CONDUCTOR_GROUP = /^[a-zA-Z0-9_\-.]*$/;

/** Node fields a JSON Patch may change (Ironic's `PATCH_ALLOWED_FIELDS` plus newer ones). */
export const NODE_PATCH_ALLOWED = [
  'automated_clean', 'bios_interface', 'boot_interface', 'chassis_uuid', 'conductor_group', 'console_interface',
  'deploy_interface', 'description', 'disable_power_off', 'driver', 'driver_info', 'extra', 'firmware_interface',
  'inspect_interface', 'instance_info', 'instance_uuid', 'lessee', 'maintenance', 'management_interface', 'name',
  'network_data', 'network_interface', 'owner', 'parent_node', 'power_interface', 'properties', 'protected',
  'protected_reason', 'raid_interface', 'rescue_interface', 'resource_class', 'retired', 'retired_reason', 'shard',
  'storage_interface', 'vendor_interface',
] as const;

/** Throws NotAcceptable (406) when a field newer than the version carries a value (Ironic's rule). */
export function rejectNewerFields(values: Record<string, unknown>, minor: number): void {
  for (const [field, value] of Object.entries(values)) {
    if (nodeFieldAllowed(field, minor)) continue;
    if (value === null || value === undefined) continue;
    if (field === 'conductor_group' && value === '') continue;
    throw fail('fieldNotAcceptable', { field, minor, min: nodeFieldMinor(field) });
  }
}

/**
 * One field's wire value as the storage value; `null` becomes the field's empty value. `node` is the
 * node's identifier in the URL of an update (undefined for a create).
 */
async function convert(deps: ApiDeps, field: string, value: unknown, minor: number, node: string | undefined): Promise<[string, unknown]> {
  if (value === null) {
    if (DICT_FIELDS.has(field)) return [field, {}];
    if (NON_NULL_BOOLS.has(field)) return [field, false];
    if (field === 'conductor_group') return [field, ''];
    if (field === 'chassis_uuid') return ['chassis_id', null];
    if (field === 'driver') throw fail('patchMandatoryAttribute', { path: '/driver' });
    return [field, null];
  }
  if (BOOL_FIELDS.has(field)) return [field, toBool(field, value)];
  switch (field) {
    case 'name':
      if (typeof value !== 'string' || !isValidNodeName(value, minor)) {
        throw node === undefined ? fail('nodeNameInvalid', { name: String(value) }) : fail('nodeRenameInvalid', { node, name: String(value) });
      }
      return [field, value];
    case 'uuid':
    case 'instance_uuid':
      return [field, requireUuid(field, value)];
    case 'chassis_uuid':
      return ['chassis_id', await chassisIdFor(deps, value)];
    case 'conductor_group':
      if (typeof value !== 'string' || !CONDUCTOR_GROUP.test(value) || value.length > 255) {
        throw fail('conductorGroupInvalid', { group: String(value) });
      }
      return [field, value.toLowerCase()];
    default:
      return [field, value];
  }
}

/** Validates a `POST /v1/nodes` body and returns what to create. */
export async function nodeCreateFromBody(deps: ApiDeps, body: unknown, minor: number): Promise<NodeCreate> {
  const obj = checkBody('node', body, NodeCreateBody);
  rejectNewerFields(obj, minor);
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(obj)) {
    const [k, v] = await convert(deps, field, value, minor, undefined);
    out[k] = v;
  }
  out.provision_state = minor < 11 ? 'available' : 'enroll';
  return out as NodeCreate;
}

/** Validates the fields a patch of node `node` (as the URL names it) changed against the patched schema into NodeChanges. */
export async function nodeChangesFromPatch(deps: ApiDeps, node: string, changed: Record<string, unknown>, minor: number): Promise<NodeChanges> {
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(checkChanged(changed, NodePatchedBody))) {
    const [k, v] = await convert(deps, field, value, minor, node);
    out[k] = v;
  }
  return out as NodeChanges;
}
