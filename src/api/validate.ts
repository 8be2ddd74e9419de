/**
 * Checks a request body against one of the flat JSON Schemas of `protocol/api/bodies.ts` and names
 * the problem the way Ironic does (field, value, expected type). Walking the schema directly keeps
 * the per-request cost tiny and the messages exact; nested values are only type-checked.
 */
import type { TSchema } from 'typebox';
import { fail } from '../shared/errors.js';

interface Schema {
  type?: string;
  anyOf?: Schema[];
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
  if (s.type === undefined) return true;
  const t = jsonType(value);
  if (s.type === 'number') return t === 'number' || t === 'integer';
  return s.type === t;
}

function typeNames(s: Schema): string[] {
  if (s.anyOf) return s.anyOf.flatMap(typeNames);
  return s.type ? [s.type] : ['any'];
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
    throw fail(
      'InvalidParameterValue',
      `Invalid input for field/attribute ${name}. Value: ${JSON.stringify(value)}. Expected ${typeNames(s).join(' or ')}, got ${jsonType(value)}.`,
    );
  }
  const max = maxLengthOf(s);
  if (max !== undefined && typeof value === 'string' && value.length > max) {
    throw fail('InvalidParameterValue', `Invalid input for field/attribute ${name}. Value is longer than ${max} characters.`);
  }
  const items = s.items ?? s.anyOf?.find((a) => a.type === 'array')?.items;
  if (items && Array.isArray(value)) {
    value.forEach((v, i) => checkField(`${name}[${i}]`, v, items as TSchema));
  }
}

/**
 * Validates `body` against an object schema: a JSON object, no unknown fields (when the schema says
 * so), required fields present, each field of the right type. Returns the body typed as a record.
 */
export function checkBody(what: string, body: unknown, schema: TSchema): Record<string, unknown> {
  const s = schema as Schema;
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw fail('InvalidParameterValue', `Invalid input for ${what}: expected a JSON object, got ${body === undefined ? 'no body' : jsonType(body)}.`);
  }
  const obj = body as Record<string, unknown>;
  const props = s.properties ?? {};
  if (s.additionalProperties === false) {
    for (const key of Object.keys(obj)) {
      if (!Object.prototype.hasOwnProperty.call(props, key)) {
        throw fail('InvalidParameterValue', `Invalid input for ${what}: unknown field '${key}'. Additional properties are not allowed ('${key}' was unexpected).`);
      }
    }
  }
  for (const key of s.required ?? []) {
    if (!(key in obj)) throw fail('InvalidParameterValue', `Invalid input for ${what}: '${key}' is a required property.`);
  }
  for (const [key, value] of Object.entries(obj)) {
    const fs = props[key];
    if (fs) checkField(key, value, fs as TSchema);
  }
  return obj;
}
