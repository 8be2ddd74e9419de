/**
 * The secret fields of a node as the API shows them, as Ironic's `node_sanitize` renders them for
 * everyone (its `show_password` and `show_instance_secrets` rules allow nobody by default): oslo's
 * `mask_dict_password` over `driver_info`, `instance_info` and `driver_internal_info`, plus the SNMP
 * keys of `driver_info`, and `instance_info.configdrive` (a dict of user data too) and
 * `instance_info.image_url` (it may carry credentials or a temporary URL) replaced whole. Strings are
 * masked with `maskText`, so a URL such as `image_source` keeps its shape but not its password.
 */
import type { JsonObject } from '../../domain/node.js';
import { MASK, maskDict, maskText } from '../../shared/mask.js';

/** Replaces the non-empty values of `fields` by the mask (Ironic's `_mask_fields`). */
function maskFields(obj: JsonObject, fields: readonly string[]): JsonObject {
  let out: JsonObject | undefined;
  for (const f of fields) {
    const v = obj[f];
    if (v !== undefined && v !== null && v !== '' && v !== false && v !== 0 && v !== MASK) (out ??= { ...obj })[f] = MASK;
  }
  return out ?? obj;
}

/** `driver_info` as the API shows it. */
export function apiDriverInfo(driverInfo: JsonObject): JsonObject {
  return maskFields(maskDict(driverInfo, MASK, maskText), ['snmp_auth_key', 'snmp_priv_key']);
}

/** `instance_info` as the API shows it. */
export function apiInstanceInfo(instanceInfo: JsonObject): JsonObject {
  return maskFields(maskDict(instanceInfo, MASK, maskText), ['configdrive', 'image_url']);
}

/** `driver_internal_info` as the API shows it (the agent token among others). */
export function apiDriverInternalInfo(internal: JsonObject): JsonObject {
  return maskDict(internal, MASK, maskText);
}
