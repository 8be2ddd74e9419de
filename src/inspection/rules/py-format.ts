/**
 * The subset of Python's `str.format()` that rule values use: `{data[inventory][bmc_address]}` (legacy
 * inspector rules), `{inventory[cpu][count]}`, `{plugin_data[x]}`, `{node.name}` and `{item}` (Ironic
 * inspection rules). Both DSLs format with Python, so substitutions render as Python's `str()` would
 * (`None`, `True`, `['a', 'b']`).
 *
 * Supported: `{{` / `}}` escapes, field names with `.attr` and `[key]` parts, `!s` / `!r` / `!a`
 * conversions. A format spec (`{x:>10}`) is refused rather than half-implemented.
 */
import { isPlainObject, pyStr } from './py-values.js';
import { pythonRepr } from '../../protocol/python-repr.js';

/** A replacement field could not be resolved; `kind` is the Python exception the original raises. */
export class FormatError extends Error {
  constructor(
    readonly kind: 'KeyError' | 'AttributeError' | 'IndexError' | 'TypeError' | 'ValueError',
    message: string,
  ) {
    super(message);
    this.name = kind;
  }
}

/**
 * The names a template may use. `objects` lists the names that behave as Python objects (attribute
 * access with `.`); every other name is a dict or list and only supports `[key]`.
 */
export interface FormatScope {
  values: Record<string, unknown>;
  objects?: ReadonlySet<string>;
}

/** Formats `template` like Python's `template.format(**scope.values)`; throws {@link FormatError}. */
export function pyFormat(template: string, scope: FormatScope): string {
  let out = '';
  let i = 0;
  while (i < template.length) {
    const ch = template[i]!;
    if (ch === '{') {
      if (template[i + 1] === '{') {
        out += '{';
        i += 2;
        continue;
      }
      const end = findFieldEnd(template, i + 1);
      out += renderField(template.slice(i + 1, end), scope);
      i = end + 1;
      continue;
    }
    if (ch === '}') {
      if (template[i + 1] === '}') {
        out += '}';
        i += 2;
        continue;
      }
      throw new FormatError('ValueError', "Single '}' encountered in format string");
    }
    out += ch;
    i++;
  }
  return out;
}

/** True when `text` has at least one replacement field (so it is a template, not a literal). */
export function hasReplacementField(text: string): boolean {
  return /(^|[^{])\{(?!\{)/.test(text.replace(/\{\{/g, ''));
}

function findFieldEnd(template: string, start: number): number {
  let depth = 0;
  let inIndex = false;
  for (let j = start; j < template.length; j++) {
    const c = template[j];
    if (inIndex) {
      if (c === ']') inIndex = false;
      continue;
    }
    if (c === '[') inIndex = true;
    else if (c === '{') depth++;
    else if (c === '}') {
      if (depth === 0) return j;
      depth--;
    }
  }
  throw new FormatError('ValueError', "expected '}' before end of string");
}

function renderField(field: string, scope: FormatScope): string {
  // Split off the format spec and conversion (outside any [..] part).
  let name = field;
  let conversion: string | undefined;
  let spec: string | undefined;
  let inIndex = false;
  for (let j = 0; j < field.length; j++) {
    const c = field[j];
    if (inIndex) {
      if (c === ']') inIndex = false;
      continue;
    }
    if (c === '[') inIndex = true;
    else if (c === '!' || c === ':') {
      name = field.slice(0, j);
      const rest = field.slice(j);
      if (c === '!') {
        conversion = rest.slice(1, 2);
        const after = rest.slice(2);
        if (after && !after.startsWith(':')) throw new FormatError('ValueError', 'expected \':\' after conversion specifier');
        spec = after ? after.slice(1) : undefined;
      } else {
        spec = rest.slice(1);
      }
      break;
    }
  }
  if (spec) throw new FormatError('ValueError', `format spec "${spec}" is not supported in rule templates`);
  const value = resolveField(name, scope);
  switch (conversion) {
    case undefined:
    case 's':
      return pyStr(value);
    case 'r':
    case 'a':
      return pythonRepr(value);
    default:
      throw new FormatError('ValueError', `Unknown conversion specifier ${conversion}`);
  }
}

/** Resolves a Python format field name (`a.b[c][0]`) against the scope. */
export function resolveField(name: string, scope: FormatScope): unknown {
  const m = /^[^.[]*/.exec(name)!;
  const root = m[0];
  if (root === '' || /^\d+$/.test(root)) {
    throw new FormatError('IndexError', `positional replacement field {${name}} is not available; name a value, e.g. {inventory[...]}`);
  }
  if (!Object.hasOwn(scope.values, root)) throw new FormatError('KeyError', `'${root}'`);
  let current: unknown = scope.values[root];
  let isObject = scope.objects?.has(root) ?? false;
  let rest = name.slice(root.length);
  while (rest.length > 0) {
    if (rest.startsWith('.')) {
      const attr = /^\.([^.[]*)/.exec(rest)![1]!;
      if (attr === '') throw new FormatError('ValueError', 'Empty attribute in format string');
      if (!isObject || !isPlainObject(current) || !Object.hasOwn(current, attr)) {
        throw new FormatError('AttributeError', `'${isObject ? 'object' : typeName(current)}' object has no attribute '${attr}'`);
      }
      current = current[attr];
      rest = rest.slice(attr.length + 1);
    } else if (rest.startsWith('[')) {
      const close = rest.indexOf(']');
      if (close < 0) throw new FormatError('ValueError', "Missing ']' in format string");
      const key = rest.slice(1, close);
      if (key === '') throw new FormatError('ValueError', 'Empty attribute in format string');
      current = index(current, key);
      rest = rest.slice(close + 1);
    } else {
      throw new FormatError('ValueError', "Only '.' or '[' may follow ']' in format field specifier");
    }
    isObject = false;
  }
  return current;
}

function index(current: unknown, key: string): unknown {
  if (Array.isArray(current)) {
    if (!/^\d+$/.test(key)) throw new FormatError('TypeError', `list indices must be integers, not '${key}'`);
    const i = Number(key);
    if (i >= current.length) throw new FormatError('IndexError', `list index ${i} out of range`);
    return current[i];
  }
  if (isPlainObject(current)) {
    if (!Object.hasOwn(current, key)) throw new FormatError('KeyError', `'${key}'`);
    return current[key];
  }
  throw new FormatError('TypeError', `'${typeName(current)}' object is not subscriptable`);
}

function typeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'object') return 'dict';
  return typeof value === 'string' ? 'str' : typeof value === 'number' ? 'int' : typeof value;
}
