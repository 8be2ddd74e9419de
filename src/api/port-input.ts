/**
 * What a port create or update may carry, by microversion, as Ironic's `api/controllers/v1/port.py`
 * (`PORT_SCHEMA`, `_check_allowed_port_fields`) and `utils.py` (`LOCAL_LINK_*` schemas,
 * `local_link_normalize`) decide it: the body schema with `node_ident` (1.94), the fields newer than
 * the request's version, and the shapes `local_link_connection` may take (the OVN VTEP one from 1.90).
 */
import { ownGet } from '../shared/own-keys.js';
import type { JsonObject } from '../domain/node.js';
import type { PortPostBody } from '../protocol/api/bodies.js';
import { pythonRepr } from '../protocol/python-repr.js';
import { fail } from '../shared/errors.js';
import { isMac } from '../shared/mac.js';
import type { PatchOp } from './patch.js';

/** Ironic's `oneOf: [{required: [node_ident]}, {required: [node_uuid]}]` of `PortPostBody`; returns the one given. */
export function requireOneNode(body: Pick<PortPostBody, 'node_ident' | 'node_uuid'>): { field: 'node_ident' | 'node_uuid'; value: string } {
  const { node_ident: ident, node_uuid: uuid } = body;
  if (ident !== undefined && uuid === undefined) return { field: 'node_ident', value: ident };
  if (uuid !== undefined && ident === undefined) return { field: 'node_uuid', value: uuid };
  throw fail(ident !== undefined ? 'portNodeBothGiven' : 'portNodeNeitherGiven');
}

/**
 * The port fields Ironic checks against the request's version (`_check_allowed_port_fields`) in a
 * create body, a `fields=` list and a `sort_key`, with the minor version that brought each.
 */
export const CHECKED_PORT_FIELDS: Readonly<Record<string, number>> = {
  pxe_enabled: 19, local_link_connection: 19, portgroup_uuid: 24, physical_network: 34, is_smartnic: 53, name: 88,
};
/** `local_link_connection` keys newer than the field: `network_type` (1.64), the OVN VTEP switch (1.90). */
const NEWER_LINK_KEYS: Readonly<Record<string, number>> = { network_type: 64, 'vtep-logical-switch': 90 };

function notAcceptable(field: string, minor: number, min: number): never {
  throw fail('fieldNotAcceptable', { field, minor, min });
}

/**
 * Ironic's `_check_allowed_port_fields` on a create body: a field present (even null) that is newer
 * than `minor` is a 406, as are `local_link_connection.network_type` below 1.64 and the VTEP switch
 * (`vtep-logical-switch`) below 1.90.
 */
export function rejectNewerPortInput(body: Record<string, unknown>, minor: number): void {
  for (const key of Object.keys(body)) {
    const min = ownGet(CHECKED_PORT_FIELDS, key) as number | undefined;
    if (min !== undefined && minor < min) notAcceptable(key, minor, min);
  }
  const link = body.local_link_connection;
  if (link !== null && typeof link === 'object') {
    for (const [key, min] of Object.entries(NEWER_LINK_KEYS)) {
      if (key in link && minor < min) notAcceptable(`local_link_connection/${key}`, minor, min);
    }
  }
}

/** The patch paths Ironic version-checks (`fields_to_check` of `PortsController.patch`). */
const PATCH_CHECKED: Readonly<Record<string, number>> = {
  '/pxe_enabled': 19, '/local_link_connection': 19, '/portgroup_uuid': 24, '/physical_network': 34, '/is_smartnic': 53,
  '/local_link_connection/network_type': 64,
};

/**
 * Ironic's version checks of a port PATCH: a path above that sets a value, or removes it or anything
 * under it, is a 406 below its version. NOTE: Ironic checks nothing else, so below their versions a
 * PATCH may still set `name` (1.88) or put the VTEP keys (1.90) into `local_link_connection`, or
 * change a key under `/local_link_connection/` (1.19); the response then hides them as usual.
 */
export function rejectNewerPortPatch(ops: readonly PatchOp[], minor: number): void {
  for (const [path, min] of Object.entries(PATCH_CHECKED)) {
    if (minor >= min) continue;
    if (ops.some((p) => (p.op !== 'remove' && p.path === path) || (p.op === 'remove' && (p.path === path || p.path.startsWith(`${path}/`))))) {
      notAcceptable(path.slice(1), minor, min);
    }
  }
}

const LINK_STRING_KEYS = ['port_id', 'switch_id', 'hostname', 'switch_info', 'vtep-logical-switch', 'vtep-physical-switch'];
const LINK_KEYS = new Set([...LINK_STRING_KEYS, 'network_type']);

/** `LOCAL_LINK_BASE_SCHEMA`: known keys only, strings, a known `network_type`, both VTEP keys or none. */
function baseShape(link: JsonObject): boolean {
  for (const [key, value] of Object.entries(link)) {
    if (!LINK_KEYS.has(key)) return false;
    if (key === 'network_type' ? value !== 'managed' && value !== 'unmanaged' : typeof value !== 'string') return false;
  }
  return ('vtep-logical-switch' in link) === ('vtep-physical-switch' in link);
}

const has = (link: JsonObject, ...keys: string[]) => keys.every((k) => k in link);

const DATAPATH_ID = /^[0-9a-f]{16}$/;

/**
 * Validates `local_link_connection` as Ironic's `LOCAL_LINK_VALIDATOR` does (the same at every
 * version; {@link rejectNewerPortInput} gates the newer keys): `{}`, or known keys with string values
 * forming one of a switch link (`port_id` + `switch_id`), a Smart NIC (`port_id` + `hostname`), an
 * unmanaged network (`network_type: unmanaged`) or an OVN VTEP switch (`port_id` +
 * `vtep-logical-switch` + `vtep-physical-switch`, 1.90). `switch_id` must be a MAC address or an
 * OpenFlow datapath id and is lower-cased. Returns the normalised value (null stays null).
 */
export function validateLocalLink(value: unknown): JsonObject | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw fail('localLinkNotObject', { value: pythonRepr(value) });
  }
  const link = value as JsonObject;
  const valid = Object.keys(link).length === 0 || (baseShape(link) && (
    has(link, 'port_id', 'switch_id')
    || has(link, 'port_id', 'hostname')
    || link.network_type === 'unmanaged'
    || has(link, 'port_id', 'vtep-logical-switch', 'vtep-physical-switch')
  ));
  if (!valid) {
    throw fail('localLinkInvalid', { value: pythonRepr(link) });
  }
  if (typeof link.switch_id !== 'string') return link;
  const id = link.switch_id.toLowerCase();
  if (!isMac(id) && !DATAPATH_ID.test(id)) {
    throw fail('switchIdInvalid', { switch_id: link.switch_id });
  }
  return { ...link, switch_id: id };
}

/** Ironic's create-time check of a Smart NIC port: its link must name `port_id` and `hostname`. */
export function checkSmartNicLink(link: JsonObject | null): void {
  if (link === null) return;
  if (!(baseShape(link) && has(link, 'port_id', 'hostname'))) {
    throw fail('smartNicLinkIncomplete');
  }
}
