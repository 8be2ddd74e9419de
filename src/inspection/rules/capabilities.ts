/**
 * Capability changes made by rules: `properties.capabilities` keeps the form the node already used — a
 * `"k:v,k:v"` string (read and written by ../capabilities.ts) or, as some tooling writes it, an object.
 */
import type { Json } from '../../domain/node.js';
import { formatCapabilities, parseCapabilities } from '../capabilities.js';
import { isPlainObject, pyStr } from './py-values.js';

/**
 * `properties.capabilities` with `name` set to `value` (replacing an existing value in place) or, with
 * `value` undefined, removed. The result has the same form (string or object) as `raw`.
 */
export function updateCapabilities(raw: unknown, name: string, value: unknown): string | Record<string, unknown> {
  if (isPlainObject(raw)) {
    const copy: Record<string, unknown> = { ...raw };
    if (value === undefined) delete copy[name];
    else copy[name] = value;
    return copy;
  }
  const caps = parseCapabilities(raw as Json | undefined);
  if (value === undefined) caps.delete(name);
  else caps.set(name, pyStr(value));
  return formatCapabilities(caps);
}
