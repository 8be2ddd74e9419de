/**
 * The JSONPath subset legacy introspection rules use in a condition's `field` (ironic-inspector
 * evaluated it with `jsonpath_rw`): `inventory.cpu.count`, `$.inventory.cpu.count`,
 * `inventory.interfaces[*].ipv4_address`, `inventory.disks[0].size`, `disks[1:3]`, `inventory.*`,
 * `$..mac_address`, quoted names (`extra.'a.b'`, `['a b']`).
 *
 * Semantics follow jsonpath_rw: a missing field yields nothing (not null); `[*]` or a slice on a value
 * that is not a list treats it as a one-element list; a field step on a list yields nothing.
 */
import { isPlainObject } from './py-values.js';

type Step =
  | { kind: 'fields'; names: string[] }
  | { kind: 'any' }
  | { kind: 'index'; index: number }
  | { kind: 'slice'; start: number | null; end: number | null; step: number | null }
  | { kind: 'descend'; inner: Step };

/** A parsed JSONPath expression. */
export interface JsonPath {
  source: string;
  steps: readonly Step[];
}

/** Thrown for a path that does not parse; the message names the position. */
export class JsonPathError extends Error {
  override name = 'JsonPathError';
}

const ID = /^[A-Za-z0-9_@-]+/;

/** Parses a JSONPath expression of the supported subset; throws {@link JsonPathError}. */
export function parseJsonPath(source: string): JsonPath {
  const s = source.trim();
  if (s === '') throw new JsonPathError('empty JSON path');
  const steps: Step[] = [];
  let i = 0;
  if (s[0] === '$') i = 1;
  const err = (what: string): never => {
    throw new JsonPathError(`${what} at position ${i} of JSON path "${source}"`);
  };
  const readName = (): Step => {
    const c = s[i];
    if (c === '*') {
      i++;
      return { kind: 'any' };
    }
    if (c === "'" || c === '"') return { kind: 'fields', names: [readQuoted()] };
    const m = ID.exec(s.slice(i));
    if (!m) return err('expected a field name');
    i += m[0].length;
    return { kind: 'fields', names: [m[0]] };
  };
  const readQuoted = (): string => {
    const q = s[i]!;
    const end = s.indexOf(q, i + 1);
    if (end < 0) return err('unterminated quoted name');
    const name = s.slice(i + 1, end);
    i = end + 1;
    return name;
  };
  const readBracket = (): Step => {
    i++; // '['
    const close = s.indexOf(']', i);
    if (close < 0) return err("missing ']'");
    const body = s.slice(i, close).trim();
    let step: Step;
    if (body === '*') step = { kind: 'slice', start: null, end: null, step: null };
    else if (/^-?\d+$/.test(body)) step = { kind: 'index', index: Number(body) };
    else if (/^(-?\d*)\s*:\s*(-?\d*)(\s*:\s*(-?\d*))?$/.test(body)) {
      const [a, b, c] = body.split(':').map((x) => x.trim());
      const num = (x: string | undefined): number | null => (x === undefined || x === '' ? null : Number(x));
      step = { kind: 'slice', start: num(a), end: num(b), step: num(c) };
      if (step.step === 0) return err('slice step cannot be zero');
    } else {
      const names: string[] = [];
      for (const part of body.split(',')) {
        const p = part.trim();
        const m = /^'([^']*)'$|^"([^"]*)"$|^([A-Za-z0-9_@-]+)$/.exec(p);
        if (!m) return err(`invalid index "${body}"`);
        names.push(m[1] ?? m[2] ?? m[3]!);
      }
      step = { kind: 'fields', names };
    }
    i = close + 1;
    return step;
  };

  if (i === 0) steps.push(s[0] === '[' ? readBracket() : readName());
  while (i < s.length) {
    const c = s[i];
    if (c === '.') {
      if (s[i + 1] === '.') {
        i += 2;
        steps.push({ kind: 'descend', inner: s[i] === '[' ? readBracket() : readName() });
      } else {
        i++;
        steps.push(readName());
      }
    } else if (c === '[') {
      steps.push(readBracket());
    } else if (c === ' ' || c === '\t') {
      i++;
    } else {
      err(`unexpected "${c}"`);
    }
  }
  return { source, steps };
}

/** All values `path` selects in `data`, in document order. */
export function findJsonPath(path: JsonPath, data: unknown): unknown[] {
  let current: unknown[] = [data];
  for (const step of path.steps) current = current.flatMap((v) => apply(step, v));
  return current;
}

function apply(step: Step, value: unknown): unknown[] {
  switch (step.kind) {
    case 'fields':
      if (!isPlainObject(value)) return [];
      return step.names.filter((n) => Object.hasOwn(value, n)).map((n) => value[n]);
    case 'any':
      if (isPlainObject(value)) return Object.values(value);
      return [];
    case 'index': {
      if (!Array.isArray(value)) return [];
      const idx = step.index < 0 ? value.length + step.index : step.index;
      return idx >= 0 && idx < value.length ? [value[idx]] : [];
    }
    case 'slice': {
      const list = Array.isArray(value) ? value : [value];
      return pySlice(list, step.start, step.end, step.step);
    }
    case 'descend':
      return descendants(value).flatMap((v) => apply(step.inner, v));
  }
}

/** The value itself and every value nested in it (depth first), as `..` walks them. */
function descendants(value: unknown): unknown[] {
  const out: unknown[] = [value];
  if (Array.isArray(value)) for (const v of value) out.push(...descendants(v));
  else if (isPlainObject(value)) for (const v of Object.values(value)) out.push(...descendants(v));
  return out;
}

function pySlice(list: unknown[], start: number | null, end: number | null, step: number | null): unknown[] {
  const n = list.length;
  const st = step ?? 1;
  const norm = (x: number | null, dflt: number): number => {
    if (x === null) return dflt;
    const v = x < 0 ? n + x : x;
    return st > 0 ? Math.min(Math.max(v, 0), n) : Math.min(Math.max(v, -1), n - 1);
  };
  const out: unknown[] = [];
  if (st > 0) for (let i = norm(start, 0); i < norm(end, n); i += st) out.push(list[i]);
  else for (let i = norm(start, n - 1); i > norm(end, -1); i += st) out.push(list[i]);
  return out;
}
