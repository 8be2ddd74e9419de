/** MAC addresses as Ironic accepts them: six colon-separated hex octets (or 20 for InfiniBand), lower-cased. */
import { fail } from '../shared/errors.js';

const MAC_RE = /^[0-9a-f]{2}(:[0-9a-f]{2}){5}$|^[0-9a-f]{2}(:[0-9a-f]{2}){19}$/;

/** Validates and normalises a MAC address; throws InvalidParameterValue (400). */
export function normalizeMac(value: unknown): string {
  const v = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (!MAC_RE.test(v)) throw fail('InvalidParameterValue', `Expected a MAC address but received ${JSON.stringify(value)}.`);
  return v;
}
