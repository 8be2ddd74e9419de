/**
 * Walking user-supplied key paths over parsed JSON without ever reaching an object's prototype. Every
 * place that follows a path a client, a rule or an agent wrote (`/extra/a/b`, `node.driver_info.x`,
 * `sort_key`, `fields=`) reads and writes through these helpers:
 *
 * - a read sees only the object's own keys, so inherited names (`toString`, `hasOwnProperty`,
 *   `constructor`, `__proto__`) are ordinary missing keys;
 * - a write defines an own data property, so even a `__proto__` key stays plain data (as `JSON.parse`
 *   makes it) instead of invoking the prototype setter;
 * - callers that take a path from a user refuse the prototype keys outright ({@link prototypeKeyIn}),
 *   with an error of their own words, so such a path is a clear 4xx rather than a surprise.
 */

/** Keys that name or lead to a prototype when used as a property name in JavaScript. */
export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** A dict as parsed JSON holds it. */
export type OwnRecord = Record<string, unknown>;

/** True for `__proto__`, `constructor` and `prototype`. */
export function isPrototypeKey(key: string): boolean {
  return PROTOTYPE_KEYS.has(key);
}

/** The first prototype key among `parts`, or undefined when there is none. */
export function prototypeKeyIn(parts: readonly string[]): string | undefined {
  return parts.find(isPrototypeKey);
}

/** True for a non-null object that is not an array (a JSON dict). */
export function isRecord(value: unknown): value is OwnRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when `obj` has `key` as an own property (never an inherited one). */
export function hasOwnKey(obj: unknown, key: string): boolean {
  return isRecord(obj) && Object.hasOwn(obj, key);
}

/** The own property `key` of `obj`, or undefined (inherited names and non-dicts are missing keys). */
export function ownGet(obj: unknown, key: string): unknown {
  return hasOwnKey(obj, key) ? (obj as OwnRecord)[key] : undefined;
}

/**
 * The value at `parts` under `root` through own keys (and decimal list indexes) only, or undefined when
 * any step is missing.
 */
export function ownGetIn(root: unknown, parts: readonly string[]): unknown {
  let cur = root;
  for (const key of parts) {
    if (Array.isArray(cur) && /^\d+$/.test(key)) cur = cur[Number(key)];
    else if (hasOwnKey(cur, key)) cur = (cur as OwnRecord)[key];
    else return undefined;
  }
  return cur;
}

/** Sets `obj[key]` as an own, enumerable data property: never a prototype setter, whatever `key` is. */
export function ownSet(obj: OwnRecord, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

