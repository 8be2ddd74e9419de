/**
 * Root device hints (`properties.root_device`, or per instance in `instance_info.root_device`): which disk
 * an image is written to and which disk `local_gb` is computed from. The grammar and the matching follow
 * Ironic (`ironic.common.utils.parse_root_device_hints` / `find_devices_by_hints`, which use oslo.utils'
 * `specs_matcher`), so a node's hints select the same disk in Ingot as in Ironic:
 *
 * - keys: model, vendor, serial, size, wwn, wwn_with_extension, wwn_vendor_extension, rotational, hctl,
 *   by_path, name;
 * - numbers (size, in GiB): `==` (the default), `!=`, `>=`, `>`, `<=`, `<`, and `=` which means `>=`
 *   (legacy), `<or> a <or> b`, and `<range-in> [ a b ]` with `[`/`]` inclusive and `(`/`)` exclusive;
 * - strings: `s==` (the default), `s!=`, `s>=`, `s>`, `s<=`, `s<`, `<in>` (substring), `<or>`, `<all-in>`;
 * - rotational: a boolean, or one of "true/false, 1/0, yes/no, on/off, t/f, y/n".
 *
 * String comparisons are case-insensitive: like Ironic, both the hint and the disk's value are trimmed,
 * lower-cased and URL-quoted (Python `urllib.parse.quote`) before comparing. A disk's size is compared in
 * GiB as a real number (`bytes / 2^30`), so `"size": 100` matches only a disk of exactly 100 GiB; use
 * `>=` or `<range-in>` for disks sold in decimal gigabytes.
 *
 * Where Ingot differs, on purpose: a hint that Ironic accepts but that can never match is rejected when
 * parsed (string operators on size, number operators on strings); `<or>` on size compares numbers
 * (Ironic compares a float with a string, never equal); `<all-in> a b` requires every word to be a
 * substring (current oslo.utils requires a list literal, which disk fields never are); a disk without
 * the hinted field (null) never matches (Ironic compares the text "none").
 *
 * It lives in protocol/ because the conductor's inspection and the agent (which picks the disk to write an
 * image to, IPA's `get_os_install_device`) must choose the same disk from the same hints.
 */
import { errorMessage, IngotError, type ErrorCode, type FailArgs, type MessageId } from '../../shared/errors.js';

/** The hint names Ironic accepts, with their types. */
export const ROOT_DEVICE_HINTS = {
  size: 'number', model: 'string', wwn: 'string', serial: 'string', vendor: 'string', wwn_with_extension: 'string',
  wwn_vendor_extension: 'string', name: 'string', rotational: 'boolean', hctl: 'string', by_path: 'string',
} as const;

export type RootDeviceHintName = keyof typeof ROOT_DEVICE_HINTS;
export type NumberOperator = '=' | '==' | '!=' | '>=' | '>' | '<=' | '<';
export type StringOperator = 's==' | 's!=' | 's>=' | 's>' | 's<=' | 's<' | '<in>';

/** One parsed hint. String values are normalised (lower case, URL-quoted); numbers are GiB. */
export type ParsedHint =
  | { name: 'size'; kind: 'number'; op: NumberOperator; value: number }
  | { name: 'size'; kind: 'number-or'; values: number[] }
  | { name: 'size'; kind: 'range'; low: number; high: number; lowInclusive: boolean; highInclusive: boolean }
  | { name: RootDeviceHintName; kind: 'string'; op: StringOperator; value: string }
  | { name: RootDeviceHintName; kind: 'string-or'; values: string[] }
  | { name: RootDeviceHintName; kind: 'all-in'; values: string[] }
  | { name: 'rotational'; kind: 'boolean'; value: boolean };

/** The disk fields hints look at (an inventory disk has them all). Size is in bytes. */
export interface HintDisk {
  name: string;
  size: number;
  model?: string | null;
  vendor?: string | null;
  serial?: string | null;
  wwn?: string | null;
  wwn_with_extension?: string | null;
  wwn_vendor_extension?: string | null;
  rotational?: boolean | string | null;
  hctl?: string | null;
  by_path?: string | null;
}

/** Bad root device hints; the message (of `messages/protocol.ts`) names the hint and says what is wrong. */
export class RootDeviceHintError extends IngotError {
  readonly hintName: string | null;

  /** `rendered` is what `errorMessage(id, values)` gives; {@link hintError} builds one from the id. */
  constructor(hint: string | null, rendered: { code: ErrorCode; message: string }) {
    super(rendered.code, rendered.message);
    this.hintName = hint;
  }
}

/** The RootDeviceHintError about hint `hint` of message `id` with `values`. */
function hintError<M extends MessageId>(hint: string | null, id: M, ...args: FailArgs<M>): RootDeviceHintError {
  return new RootDeviceHintError(hint, errorMessage(id, ...args));
}

const GIB = 2 ** 30;
// Longest first, so that `<=` is not read as `<`, `s==` not as `s=`, `==` not as `=`.
const OPERATORS = ['<range-in>', '<all-in>', '<or>', '<in>', 's==', 's!=', 's<=', 's>=', 's<', 's>', '==', '!=', '>=', '<=', '>', '<', '='] as const;
const NUMBER_OPS = new Set<string>(['=', '==', '!=', '>=', '>', '<=', '<']);
const STRING_OPS = new Set<string>(['s==', 's!=', 's>=', 's>', 's<=', 's<', '<in>']);
const TRUE_WORDS = new Set(['1', 't', 'true', 'on', 'y', 'yes']);
const FALSE_WORDS = new Set(['0', 'f', 'false', 'off', 'n', 'no']);

/** Python's `urllib.parse.quote(text)` (safe: letters, digits, `_.-~/`), on UTF-8 bytes. */
export function pyQuote(text: string): string {
  let out = '';
  for (const b of new TextEncoder().encode(text)) {
    const c = String.fromCharCode(b);
    out += /[A-Za-z0-9_.\-~/]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** How Ironic normalises a string for comparison: trimmed, lower case, URL-quoted. */
export function normalizeHintString(value: string): string {
  return pyQuote(value.trim().toLowerCase());
}

function splitOperator(expression: string): { op: string; rest: string } {
  for (const op of OPERATORS) if (expression.startsWith(op)) return { op, rest: expression.slice(op.length).trim() };
  return { op: '', rest: expression };
}

function parseBoolean(name: string, value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  const word = String(value).trim().toLowerCase();
  if ((typeof value === 'string' || typeof value === 'number') && TRUE_WORDS.has(word)) return true;
  if ((typeof value === 'string' || typeof value === 'number') && FALSE_WORDS.has(word)) return false;
  throw hintError(name, 'rootDeviceHintNotBoolean', { hint: name, value: String(JSON.stringify(value)) });
}

function parseSizeValue(expression: unknown, word: string): number {
  if (!/^[+-]?\d+$/.test(word)) {
    throw hintError('size', 'rootDeviceHintSizeNotInteger', { value: String(JSON.stringify(expression)) });
  }
  const n = Number(word);
  if (n <= 0) throw hintError('size', 'rootDeviceHintSizeNotPositive', { value: String(JSON.stringify(expression)) });
  return n;
}

function orValues(name: string, expression: unknown, rest: string): string[] {
  // `<or> a <or> b`: the first operator is already gone. Empty alternatives (a trailing `<or>`) are
  // dropped, as Ironic's split does.
  const values = rest.split('<or>').map((v) => v.trim()).filter((v) => v !== '');
  if (values.length === 0) throw hintError(name, 'rootDeviceHintOrEmpty', { hint: name, value: String(JSON.stringify(expression)) });
  return values;
}

function parseSize(expression: unknown): ParsedHint {
  if (typeof expression !== 'number' && typeof expression !== 'string') {
    throw hintError('size', 'rootDeviceHintSizeType', { value: String(JSON.stringify(expression)) });
  }
  const text = String(expression).trim().toLowerCase();
  if (!text) throw hintError('size', 'rootDeviceHintEmpty', { hint: 'size' });
  const { op, rest } = splitOperator(text);
  if (op === '<range-in>') {
    const m = /^([[(])\s*(\S+?)\s+(\S+?)\s*([\])])$/.exec(rest);
    const low = Number(m?.[2]);
    const high = Number(m?.[3]);
    if (!m || !Number.isFinite(low) || !Number.isFinite(high)) {
      throw hintError('size', 'rootDeviceHintRangeInvalid', { value: String(JSON.stringify(expression)) });
    }
    if (low > high) throw hintError('size', 'rootDeviceHintRangeReversed', { value: String(JSON.stringify(expression)) });
    return { name: 'size', kind: 'range', low, high, lowInclusive: m[1] === '[', highInclusive: m[4] === ']' };
  }
  if (op === '<or>') {
    const values = orValues('size', expression, rest).map((v) => parseSizeValue(expression, v));
    return { name: 'size', kind: 'number-or', values };
  }
  if (op === '' || NUMBER_OPS.has(op)) {
    if (!rest) throw hintError('size', 'rootDeviceHintNeedsValue', { hint: 'size', op });
    return { name: 'size', kind: 'number', op: (op || '==') as NumberOperator, value: parseSizeValue(expression, rest) };
  }
  throw hintError('size', 'rootDeviceHintSizeOperator', { op });
}

function parseString(name: RootDeviceHintName, expression: unknown): ParsedHint {
  if (typeof expression !== 'string') {
    throw hintError(name, 'rootDeviceHintNotString', { hint: name, value: String(JSON.stringify(expression)) });
  }
  const text = expression.trim().toLowerCase();
  if (!text) throw hintError(name, 'rootDeviceHintEmpty', { hint: name });
  const { op, rest } = splitOperator(text);
  if (op && !rest) throw hintError(name, 'rootDeviceHintNeedsValue', { hint: name, op });
  if (op === '<or>') {
    return { name, kind: 'string-or', values: orValues(name, expression, rest).map(pyQuote) };
  }
  if (op === '<all-in>') return { name, kind: 'all-in', values: rest.split(/\s+/).map(pyQuote) };
  if (op === '') return { name, kind: 'string', op: 's==', value: pyQuote(text) };
  if (STRING_OPS.has(op)) return { name, kind: 'string', op: op as StringOperator, value: pyQuote(rest) };
  throw hintError(name, 'rootDeviceHintStringOperator', { hint: name, op });
}

/**
 * Parses and validates root device hints (a `properties.root_device` dict).
 * @returns the parsed hints, or null when there are none (absent, null or an empty dict).
 * @throws RootDeviceHintError naming the first bad hint.
 */
export function parseRootDeviceHints(hints: unknown): ParsedHint[] | null {
  if (hints === undefined || hints === null) return null;
  if (typeof hints !== 'object' || Array.isArray(hints)) {
    throw hintError(null, 'rootDeviceHintsNotDict', { value: String(JSON.stringify(hints)) });
  }
  const entries = Object.entries(hints as Record<string, unknown>);
  if (entries.length === 0) return null;
  const invalid = entries.map(([k]) => k).filter((k) => !(k in ROOT_DEVICE_HINTS));
  if (invalid.length > 0) {
    throw hintError(invalid[0]!, 'rootDeviceHintsUnknown', { hints: invalid.join(', '), valid: Object.keys(ROOT_DEVICE_HINTS).join(', ') });
  }
  return entries.map(([key, expression]) => {
    const name = key as RootDeviceHintName;
    if (name === 'size') return parseSize(expression);
    if (name === 'rotational') return { name, kind: 'boolean', value: parseBoolean(name, expression) };
    return parseString(name, expression);
  });
}

function compare<T extends number | string>(op: string, a: T, b: T): boolean {
  switch (op) {
    case '=': case '>=': case 's>=': return a >= b;
    case '==': case 's==': return a === b;
    case '!=': case 's!=': return a !== b;
    case '>': case 's>': return a > b;
    case '<=': case 's<=': return a <= b;
    case '<': case 's<': return a < b;
    default: return false;
  }
}

/** True when `disk` satisfies every hint. */
export function diskMatchesHints(disk: HintDisk, hints: readonly ParsedHint[]): boolean {
  return hints.every((hint) => {
    if (hint.name === 'size') {
      if (typeof disk.size !== 'number') return false;
      const gib = disk.size / GIB;
      if (hint.kind === 'number') return compare(hint.op, gib, hint.value);
      if (hint.kind === 'number-or') return hint.values.includes(gib);
      if (hint.kind === 'range') {
        const lower = hint.lowInclusive ? gib >= hint.low : gib > hint.low;
        const upper = hint.highInclusive ? gib <= hint.high : gib < hint.high;
        return lower && upper;
      }
      return false;
    }
    const raw = (disk as unknown as Record<string, unknown>)[hint.name];
    if (hint.kind === 'boolean') {
      if (raw === null || raw === undefined) return false;
      try {
        return parseBoolean(hint.name, raw) === hint.value;
      } catch {
        return false;
      }
    }
    if (raw === null || raw === undefined) return false;
    const value = normalizeHintString(String(raw));
    if (!value) return false;
    switch (hint.kind) {
      case 'string': return hint.op === '<in>' ? value.includes(hint.value) : compare(hint.op, value, hint.value);
      case 'string-or': return hint.values.includes(value);
      case 'all-in': return hint.values.every((v) => value.includes(v));
      default: return false;
    }
  });
}

/** Every disk that satisfies all hints, in inventory order. @throws RootDeviceHintError for bad hints. */
export function findDevicesByHints<D extends HintDisk>(disks: readonly D[], hints: unknown): D[] {
  const parsed = parseRootDeviceHints(hints);
  if (!parsed) return [...disks];
  return disks.filter((d) => diskMatchesHints(d, parsed));
}

/**
 * The first disk that satisfies all hints, or null when none does (Ironic's `match_root_device_hints`).
 * @throws RootDeviceHintError for bad hints.
 */
export function matchRootDeviceHints<D extends HintDisk>(disks: readonly D[], hints: unknown): D | null {
  const parsed = parseRootDeviceHints(hints);
  if (!parsed) return disks[0] ?? null;
  return disks.find((d) => diskMatchesHints(d, parsed)) ?? null;
}
