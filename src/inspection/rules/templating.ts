/**
 * Value interpolation for both rule formats: every string inside a value (dict keys included, at any
 * depth) is formatted with Python's `str.format` rules against the names a format provides
 * (`data` for legacy rules; `node`, `inventory`, `plugin_data`, `item` for inspection rules).
 */
import { FormatError, pyFormat, type FormatScope } from './py-format.js';
import { isPlainObject } from './py-values.js';
import { ownSet } from '../../shared/own-keys.js';

/** What to do when a string cannot be formatted: throw, or keep the literal and report it. */
export type OnFormatError = (template: string, error: FormatError) => string;

/** Throws the {@link FormatError} (legacy rules fail on an unknown key). */
export const throwOnFormatError: OnFormatError = (_template, error) => {
  throw error;
};

/** Formats every string in `value` (recursively through lists and dicts, keys too). */
export function formatDeep(value: unknown, scope: FormatScope, onError: OnFormatError = throwOnFormatError): unknown {
  if (typeof value === 'string') {
    try {
      return pyFormat(value, scope);
    } catch (err) {
      if (err instanceof FormatError) return onError(value, err);
      throw err;
    }
  }
  if (Array.isArray(value)) return value.map((v) => formatDeep(v, scope, onError));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) ownSet(out, formatDeep(k, scope, onError) as string, formatDeep(v, scope, onError));
    return out;
  }
  return value;
}
