/**
 * The one checker of the API's request bodies: validates a body against its schema in `protocol/`
 * (`protocol/api/bodies.ts`, `protocol/agent/lookup.ts`, …) and returns it typed as the schema's
 * `Static` type, or names the problem the way Ironic does (field, value, expected type). Walking the
 * flat schema directly keeps the per-request cost tiny and the messages exact; the values of nested
 * fields are type-checked (dicts, list items), their keys are the business of the code that reads them.
 * Bodies Ironic checks with jsonschema use `protocol/json-schema-errors.ts` instead, for its wording.
 */
import type { Static, TObject, TSchema } from 'typebox';
import { fail } from '../shared/errors.js';

interface Schema {
  type?: string;
  anyOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: Schema;
  maxLength?: number;
}

/** JSON type name of a value, as JSON Schema spells it. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function typeMatches(value: unknown, s: Schema): boolean {
  if (s.anyOf) return s.anyOf.some((alt) => typeMatches(value, alt));
  if (s.const !== undefined && value !== s.const) return false;
  if (s.type === undefined) return true;
  const t = jsonType(value);
  if (s.type === 'number') return t === 'number' || t === 'integer';
  return s.type === t;
}

function typeNames(s: Schema): string[] {
  if (s.anyOf) return [...new Set(s.anyOf.flatMap(typeNames))];
  if (s.const !== undefined) return [JSON.stringify(s.const)];
  return s.type ? [s.type] : ['any'];
}

/** The allowed values of a string field (`stringEnum`, alone or beside null). */
function enumOf(s: Schema): unknown[] | undefined {
  return s.enum ?? s.anyOf?.find((a) => a.enum !== undefined)?.enum;
}

function maxLengthOf(s: Schema): number | undefined {
  if (s.maxLength !== undefined) return s.maxLength;
  for (const alt of s.anyOf ?? []) if (alt.maxLength !== undefined) return alt.maxLength;
  return undefined;
}

/** Throws InvalidParameterValue (400) unless `value` fits the type of field `name`. */
export function checkField(name: string, value: unknown, schema: TSchema): void {
  const s = schema as Schema;
  if (!typeMatches(value, s)) {
    throw fail('fieldTypeInvalid', { field: name, value: JSON.stringify(value), expected: typeNames(s).join(' or '), actual: jsonType(value) });
  }
  const allowed = enumOf(s);
  if (allowed && value !== null && !allowed.includes(value)) {
    throw fail('fieldValueNotAllowed', { field: name, value: JSON.stringify(value), allowed: allowed.join(', ') });
  }
  const max = maxLengthOf(s);
  if (max !== undefined && typeof value === 'string' && value.length > max) {
    throw fail('fieldTooLong', { field: name, max });
  }
  const items = s.items ?? s.anyOf?.find((a) => a.type === 'array')?.items;
  if (items && Array.isArray(value)) {
    value.forEach((v, i) => checkField(`${name}[${i}]`, v, items as TSchema));
  }
}

/** `body` as a JSON object, or InvalidParameterValue naming `what` and what came instead. */
export function requireObject(what: string, body: unknown): Record<string, unknown> {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw fail('bodyNotObject', { what, actual: body === undefined ? 'no body' : jsonType(body) });
  }
  return body as Record<string, unknown>;
}

/**
 * Validates `body` against an object schema: a JSON object, no unknown fields (when the schema says
 * so), required fields present, each field of the right type. Returns the body as the schema types it.
 * `what` names the body in messages ("node", "power state request").
 */
export function checkBody<S extends TObject>(what: string, body: unknown, schema: S): Static<S> {
  const s = schema as Schema;
  const obj = requireObject(what, body);
  const props = s.properties ?? {};
  if (s.additionalProperties === false) {
    for (const key of Object.keys(obj)) {
      if (!Object.prototype.hasOwnProperty.call(props, key)) {
        throw fail('bodyFieldUnknown', { what, field: key });
      }
    }
  }
  for (const key of s.required ?? []) {
    if (!(key in obj)) throw fail('bodyFieldRequired', { what, field: key });
  }
  for (const [key, value] of Object.entries(obj)) {
    const fs = props[key];
    if (fs) checkField(key, value, fs as TSchema);
  }
  return obj as Static<S>;
}

/** The fields a JSON Patch changed, typed as the body schema types them; a removed field is null. */
export type Changed<S extends TObject> = { [K in keyof Static<S>]?: Exclude<Static<S>[K], undefined> | null };

/**
 * Type-checks the fields a JSON Patch changed (`changedFields` of `api/patch.ts`, each one the schema
 * knows) against the resource's body schema and returns them typed. Null (a removed field) always passes:
 * the caller turns it into the field's empty value.
 */
export function checkChanged<S extends TObject>(changed: Record<string, unknown>, schema: S): Changed<S> {
  const props = (schema as Schema).properties ?? {};
  for (const [field, value] of Object.entries(changed)) {
    const fs = props[field];
    if (fs && value !== null) checkField(field, value, fs as TSchema);
  }
  return changed as Changed<S>;
}
