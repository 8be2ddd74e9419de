/**
 * Node capabilities in Ironic's string form, `"k1:v1,k2:v2"` (`properties.capabilities`), as
 * `ironic.common.utils.get_updated_capabilities` reads and writes them. A dict is accepted on input too.
 */
import type { Json } from '../domain/node.js';
import { fail } from '../shared/errors.js';

/** Parses `properties.capabilities` (string or dict) into an ordered map; throws on a malformed string. */
export function parseCapabilities(value: Json | undefined): Map<string, string> {
  const result = new Map<string, string>();
  if (value === undefined || value === null || value === '') return result;
  if (typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) result.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    return result;
  }
  if (typeof value !== 'string') throw fail('capabilitiesNotString', { value: JSON.stringify(value) });
  for (const item of value.split(',')) {
    if (item.trim() === '') continue;
    const at = item.indexOf(':');
    if (at < 0) throw fail('capabilityNotKeyValue', { value, item });
    result.set(item.slice(0, at).trim(), item.slice(at + 1).trim());
  }
  return result;
}

/** Formats a capability map as `"k1:v1,k2:v2"` (insertion order, like Python dicts). */
export function formatCapabilities(caps: ReadonlyMap<string, string>): string {
  return [...caps].map(([k, v]) => `${k}:${v}`).join(',');
}

/** Existing capabilities with `updates` set (later keys win), in Ironic's string form. */
export function updateCapabilities(current: Json | undefined, updates: Record<string, string | number | boolean>): string {
  const caps = parseCapabilities(current);
  for (const [k, v] of Object.entries(updates)) caps.set(k, String(v));
  return formatCapabilities(caps);
}
