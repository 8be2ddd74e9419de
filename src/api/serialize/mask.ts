/**
 * Secrets never leave the API: values under keys that look like secrets are replaced by `******`,
 * following oslo `strutils.mask_dict_password` (case-insensitive substring match on the key,
 * recursively through nested objects), which Ironic applies to `driver_info` and `instance_info`.
 */
import type { Json, JsonObject } from '../../domain/node.js';

/** The mask Ironic shows in place of a secret. */
export const MASK = '******';

/** oslo.utils `_SANITIZE_KEYS`, lower-cased. */
const SANITIZE_KEYS = [
  'adminpass', 'admin_pass', 'password', 'admin_password', 'auth_token', 'new_pass', 'auth_password',
  'secret_uuid', 'secret', 'sys_pswd', 'token', 'configdrive', 'chappassword', 'encrypted_key',
  'private_key', 'fernetkey', 'sslkey', 'passphrase', 'cephxkey', 'fsk', 'manager_password', 'secret_key',
];

const cache = new Map<string, boolean>();

/** True when values under `key` are masked. */
export function isSecretKey(key: string): boolean {
  let hit = cache.get(key);
  if (hit === undefined) {
    const k = key.toLowerCase();
    hit = SANITIZE_KEYS.some((s) => k.includes(s));
    if (cache.size < 10_000) cache.set(key, hit);
  }
  return hit;
}

function hasSecret(obj: JsonObject): boolean {
  for (const key in obj) {
    if (isSecretKey(key)) return true;
    const v = obj[key];
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && hasSecret(v)) return true;
  }
  return false;
}

/** A copy of `obj` with secret values masked (the same object when there is nothing to mask). */
export function maskSecrets(obj: JsonObject): JsonObject {
  if (!hasSecret(obj)) return obj;
  const out: JsonObject = {};
  for (const key in obj) {
    const v: Json | undefined = obj[key];
    if (v === undefined) continue;
    if (isSecretKey(key)) out[key] = MASK;
    else if (v !== null && typeof v === 'object' && !Array.isArray(v)) out[key] = maskSecrets(v);
    else out[key] = v;
  }
  return out;
}
