/**
 * Parsing of command-line values into JSON.
 *
 * `k=v` options (`--driver-info`, `--property`, `--extra`, `--instance-info`, `--local-link-connection`)
 * keep `v` a string, as the `baremetal` CLI does (Ironic's drivers expect strings such as
 * `ipmi_port=623`), except when `v` starts with `{` or `[` and is valid JSON: then the object or list
 * is sent. `"key=` (empty value) sends the empty string. Keys are literal (a `/` in a key is escaped in
 * JSON Patch paths, not treated as nesting).
 */
import { readFile } from 'node:fs/promises';
import { fail } from '../shared/errors.js';
import type { JsonValue } from '../protocol/client/wire.js';

/** Commander collector for repeatable options. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** Splits `k=v` into its key and JSON value (see the module comment for the rule). */
export function parseKeyValue(arg: string, option: string): [string, JsonValue] {
  const eq = arg.indexOf('=');
  if (eq <= 0) throw fail('keyValueExpected', { option, arg });
  const key = arg.slice(0, eq);
  const raw = arg.slice(eq + 1);
  return [key, parseLooseValue(raw)];
}

/** A string, or the JSON object/list it spells when it starts with `{` or `[`. */
export function parseLooseValue(raw: string): JsonValue {
  const t = raw.trim();
  if (t.startsWith('{') || t.startsWith('[')) {
    try {
      return JSON.parse(t) as JsonValue;
    } catch {
      return raw;
    }
  }
  return raw;
}

/** Folds repeated `k=v` options into one object (later keys win). */
export function keyValues(args: string[] | undefined, option: string): Record<string, JsonValue> | undefined {
  if (!args || args.length === 0) return undefined;
  const out: Record<string, JsonValue> = {};
  for (const a of args) {
    const [k, v] = parseKeyValue(a, option);
    out[k] = v;
  }
  return out;
}

/** A JSON document given inline or as `@path` (read from the file). */
export async function jsonArg(arg: string, option: string): Promise<JsonValue> {
  const text = arg.startsWith('@') ? await readArgFile(arg.slice(1), option) : arg;
  try {
    return JSON.parse(text) as JsonValue;
  } catch (err) {
    throw fail('jsonOptionInvalid', { option, reason: (err as Error).message });
  }
}

/**
 * A config drive: a JSON object (`{…}` inline or in `@file`) that the server builds the drive from, or
 * any other string (URL or gzipped base64 image) passed through unchanged.
 */
export async function configDriveArg(arg: string): Promise<JsonValue> {
  const text = arg.startsWith('@') ? (await readArgFile(arg.slice(1), '--config-drive')).trim() : arg;
  if (text.trimStart().startsWith('{')) {
    try {
      return JSON.parse(text) as JsonValue;
    } catch (err) {
      throw fail('jsonOptionInvalid', { option: '--config-drive', reason: (err as Error).message });
    }
  }
  return text;
}

/** `true`/`false` (also yes/no, 1/0) as a boolean. */
export function parseBool(value: string, option: string): boolean {
  const v = value.trim().toLowerCase();
  if (['true', 'yes', '1', 'on'].includes(v)) return true;
  if (['false', 'no', '0', 'off'].includes(v)) return false;
  throw fail('boolOptionInvalid', { option, value });
}

/** A non-negative integer option value. */
export function parseCount(value: string, option: string): number {
  if (!/^\d+$/.test(value.trim())) throw fail('countOptionInvalid', { option, value });
  return Number(value);
}

/** A comma-separated list (`a,b` → `['a','b']`), empty items dropped. */
export function parseList(value: string): string[] {
  return value.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

async function readArgFile(path: string, option: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw fail('optionFileUnreadable', { option, path, reason: (err as NodeJS.ErrnoException).code ?? (err as Error).message });
  }
}
