/**
 * Python value semantics the rules DSLs depend on. Rules written for ironic-inspector and Ironic compare
 * and stringify JSON values the way Python does (`str(None)` is `'None'`, `'8' != 8`, lists compare
 * element-wise), so a rule must give the same answer here as it did there.
 */

import { pythonRepr } from '../../protocol/python-repr.js';
import { isRecord } from '../../shared/own-keys.js';

/** A JSON object, as rules see inspection data, nodes and ports. */
export type PlainObject = Record<string, unknown>;

/** True for a plain JSON object (not null, not an array, never `Object.prototype` itself). */
export function isPlainObject(value: unknown): value is PlainObject {
  return isRecord(value) && value !== Object.prototype;
}

/** A deep copy of JSON-like data (rules never mutate their inputs). */
export function deepClone<T>(value: T): T {
  return structuredClone(value);
}

/** Python's `str()` of a JSON value: strings as they are, everything else as `repr()` prints it. */
export function pyStr(value: unknown): string {
  return typeof value === 'string' ? value : pythonRepr(value);
}

/** Python `==` on JSON values: no coercion between strings and numbers; containers compare deeply. */
export function pyEquals(a: unknown, b: unknown): boolean {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  // NOTE: Python's bool is an int (True == 1); JSON data rarely relies on it, but keep the semantics.
  if (typeof a === 'boolean' && typeof b === 'number') return Number(a) === b;
  if (typeof b === 'boolean' && typeof a === 'number') return Number(b) === a;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((v, i) => pyEquals(v, b[i]));
  }
  if (isPlainObject(a) || isPlainObject(b)) {
    if (!isPlainObject(a) || !isPlainObject(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.hasOwn(b, k) && pyEquals(a[k], b[k]));
  }
  return a === b;
}

/**
 * Python ordering (`<`) on JSON values: numbers with numbers, strings with strings (by code point),
 * lists element-wise. Anything else is a TypeError in Python; here it throws with a message saying so.
 * Returns negative, zero or positive.
 */
export function pyCompare(a: unknown, b: unknown): number {
  const na = typeof a === 'boolean' ? Number(a) : a;
  const nb = typeof b === 'boolean' ? Number(b) : b;
  if (typeof na === 'number' && typeof nb === 'number') return na < nb ? -1 : na > nb ? 1 : 0;
  if (typeof na === 'string' && typeof nb === 'string') {
    const ca = [...na];
    const cb = [...nb];
    for (let i = 0; i < Math.min(ca.length, cb.length); i++) {
      const d = ca[i]!.codePointAt(0)! - cb[i]!.codePointAt(0)!;
      if (d !== 0) return d;
    }
    return ca.length - cb.length;
  }
  if (Array.isArray(na) && Array.isArray(nb)) {
    for (let i = 0; i < Math.min(na.length, nb.length); i++) {
      if (!pyEquals(na[i], nb[i])) return pyCompare(na[i], nb[i]);
    }
    return na.length - nb.length;
  }
  throw new TypeError(`cannot order ${pyTypeName(a)} and ${pyTypeName(b)} (${pythonRepr(a)} vs ${pythonRepr(b)})`);
}

/** Python's name for the type of a JSON value, for messages. */
export function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'string') return 'str';
  if (Array.isArray(value)) return 'list';
  return 'dict';
}

/** Python truthiness is not needed by the DSLs; `x in list` is: membership by {@link pyEquals}. */
export function pyIn(value: unknown, list: unknown): boolean {
  if (Array.isArray(list)) return list.some((v) => pyEquals(v, value));
  if (typeof list === 'string') return typeof value === 'string' && list.includes(value);
  if (isPlainObject(list)) return typeof value === 'string' && Object.hasOwn(list, value);
  throw new TypeError(`argument of type '${pyTypeName(list)}' is not iterable`);
}
