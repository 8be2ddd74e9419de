/**
 * Builds the configuration from, in rising precedence: defaults, a JSON config file, the environment
 * (`INGOT_<GROUP>_<KEY>`, e.g. `INGOT_API_PORT=6385`, `INGOT_DATABASE_URL=postgres://…`) and flags.
 * Everything is validated against the schema once; unknown keys and bad values stop start-up with a
 * message naming the key and where it came from.
 */
import { readFileSync } from 'node:fs';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { IngotConfig } from '../config/ingot-config.js';
import { fail } from '../shared/errors.js';

type Raw = Record<string, Record<string, unknown>>;

interface SchemaNode {
  type?: string;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
}

const groups = (IngotConfig as unknown as SchemaNode).properties ?? {};

/** The environment variable that sets `group.key`. */
export function envName(group: string, key: string): string {
  return `INGOT_${group}_${key}`.toUpperCase();
}

/** The value of environment variable `name` for a setting of `schema`. */
function coerce(text: string, schema: SchemaNode, name: string): unknown {
  const type = schema.type ?? (schema.anyOf ? 'string' : undefined);
  if (type === 'integer' || type === 'number') {
    const n = Number(text);
    if (text.trim() === '' || !Number.isFinite(n)) throw fail('configEnvNotNumber', { name, value: text });
    return n;
  }
  if (type === 'boolean') {
    if (/^(1|true|yes|on)$/i.test(text)) return true;
    if (/^(0|false|no|off)$/i.test(text)) return false;
    throw fail('configEnvNotBoolean', { name, value: text });
  }
  if (type === 'array') return text.split(',').map((s) => s.trim()).filter(Boolean);
  return text;
}

function readFile(path: string): Raw {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw fail('configFileUnreadable', { path, reason: (err as Error).message });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw fail('configFileNotJson', { path, reason: (err as Error).message });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw fail('configFileNotObject', { path, groups: Object.keys(groups).join(', ') });
  }
  return parsed as Raw;
}

function merge(into: Raw, from: Raw, origin: string): void {
  for (const [group, values] of Object.entries(from)) {
    const schema = groups[group];
    if (!schema) throw fail('configGroupUnknown', { origin, group, groups: Object.keys(groups).join(', ') });
    if (typeof values !== 'object' || values === null || Array.isArray(values)) {
      throw fail('configGroupNotObject', { origin, group });
    }
    for (const [key, value] of Object.entries(values)) {
      if (!schema.properties?.[key]) {
        throw fail('configKeyUnknown', { origin, group, key, keys: Object.keys(schema.properties ?? {}).join(', ') });
      }
      (into[group] ??= {})[key] = value;
    }
  }
}

export interface ConfigSources {
  /** Path of a JSON config file, if any. */
  file?: string | undefined;
  env: NodeJS.ProcessEnv;
  /** Values from flags, by group and key. */
  flags?: Raw;
}

/** Reads, merges, validates and freezes the configuration. Throws ConfigInvalid naming the problem. */
export function loadConfig(sources: ConfigSources): IngotConfig {
  const raw: Raw = {};
  const file = sources.file ?? sources.env.INGOT_CONFIG;
  if (file) merge(raw, readFile(file), `config file ${file}`);

  for (const [group, schema] of Object.entries(groups)) {
    for (const [key, prop] of Object.entries(schema.properties ?? {})) {
      const name = envName(group, key);
      const text = sources.env[name];
      if (text !== undefined) (raw[group] ??= {})[key] = coerce(text, prop, name);
    }
  }
  if (sources.flags) merge(raw, sources.flags, 'flags');

  for (const group of Object.keys(groups)) raw[group] ??= {};
  const value = Value.Default(IngotConfig as TSchema, raw);
  const errors = [...Value.Errors(IngotConfig as TSchema, value)];
  if (errors.length > 0) {
    const first = errors.find((e) => e.keyword !== 'anyOf') ?? errors[0]!;
    const path = first.instancePath.replace(/^\//, '').replace(/\//g, '.');
    throw fail('configValueInvalid', { path, value: JSON.stringify(pick(value, first.instancePath)), reason: first.message });
  }
  return deepFreeze(value as IngotConfig);
}

function pick(value: unknown, pointer: string): unknown {
  return pointer.split('/').slice(1).reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], value);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
