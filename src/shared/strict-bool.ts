/** Booleans as Ironic reads them from requests and driver_info (`oslo strutils.bool_from_string(strict=True)`). */
import { fail } from './errors.js';

const TRUE = new Set(['1', 't', 'true', 'on', 'y', 'yes']);
const FALSE = new Set(['0', 'f', 'false', 'off', 'n', 'no']);

/** `value` as a boolean: a JSON boolean or one of the words above; InvalidParameterValue naming `name` otherwise. */
export function toBool(name: string, value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase();
    if (TRUE.has(v)) return true;
    if (FALSE.has(v)) return false;
  }
  throw fail('booleanInvalid', { name, value: String(JSON.stringify(value)) });
}
