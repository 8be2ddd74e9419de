/**
 * JSON Schema validation that reports the error python-jsonschema reports, worded as it words it, for
 * the bodies Ironic checks with `jsonschema.validate` (the step lists of a provision request, the
 * virtual media attach request, …): a client gets the message it would get from Ironic. The schemas are
 * the TypeBox schemas of `protocol/`; this walks the keywords they use (type, enum, const, properties,
 * patternProperties, additionalProperties, required, items, min/max items and length, minimum, maximum,
 * pattern, anyOf). Messages and the error picked among several are those of python-jsonschema 4.10,
 * Debian 12's, which Debian's Ironic runs (`best_match`: the shallowest error, the first of equals, into
 * a failed `anyOf` the branch whose type matched). Newer jsonschema words a few differently ("should be
 * non-empty") and prefers the last of sibling errors. Several unexpected keys are listed sorted (4.10 lists
 * them in the order of a Python set, which varies from one process to the next).
 */
import type { Static, TSchema } from 'typebox';
import { pythonRepr } from './python-repr.js';

type Path = Array<string | number>;

interface Schema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  patternProperties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  required?: string[];
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  anyOf?: Schema[];
}

/** One failed keyword, as a `jsonschema.ValidationError` carries it. */
export interface SchemaError {
  /** jsonschema's message, e.g. `'usb' is not one of ['disk', 'cdrom', 'floppy']`. */
  message: string;
  /** The keyword that failed (`enum`). */
  keyword: string;
  /** Where in the instance, relative to the schema validated (for an `anyOf` branch: to that branch). */
  path: Path;
  /** Where in the schema, relative as `path` is, ending with the keyword. */
  schemaPath: Path;
  /** The failing value. */
  instance: unknown;
  /** Whether the value has a type the failing (sub)schema names (jsonschema's `_matches_type`). */
  matchesType: boolean;
  /** The branches' errors of a failed `anyOf`. */
  context: SchemaError[];
}

function isType(value: unknown, type: string): boolean {
  switch (type) {
    case 'null': return value === null;
    case 'boolean': return typeof value === 'boolean';
    case 'string': return typeof value === 'string';
    case 'integer': return typeof value === 'number' && Number.isInteger(value);
    case 'number': return typeof value === 'number';
    case 'array': return Array.isArray(value);
    case 'object': return typeof value === 'object' && value !== null && !Array.isArray(value);
    default: return true;
  }
}

/** jsonschema's `equal`: deep, and booleans are not numbers. */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => equal(x, b[i]));
  if (isType(a, 'object') && isType(b, 'object')) {
    const ka = Object.keys(a as object);
    const kb = Object.keys(b as object);
    return ka.length === kb.length && ka.every((k) => k in (b as object) && equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return false;
}

function error(keyword: string, message: string, instance: unknown, schema: Schema, context: SchemaError[] = []): SchemaError {
  const types = schema.type === undefined ? [] : ([] as string[]).concat(schema.type);
  return { message, keyword, path: [], schemaPath: [keyword], instance, matchesType: types.some((t) => isType(instance, t)), context };
}

function descend(errors: Iterable<SchemaError>, path: string | number | null, schemaPath: Path): SchemaError[] {
  const out: SchemaError[] = [];
  for (const e of errors) out.push({ ...e, path: path === null ? e.path : [path, ...e.path], schemaPath: [...schemaPath, ...e.schemaPath] });
  return out;
}

/** The length a `min…`/`max…` keyword measures (code points of a string), or null when it does not apply. */
function sizeOf(key: string, instance: unknown): number | null {
  if (key.endsWith('Items')) return Array.isArray(instance) ? instance.length : null;
  return typeof instance === 'string' ? [...instance].length : null;
}

/** Every error of `instance` against `schema`, in jsonschema's order (the schema's keyword order). */
function* iterErrors(schema: Schema, instance: unknown): Generator<SchemaError> {
  const obj = isType(instance, 'object') ? (instance as Record<string, unknown>) : null;
  for (const key of Object.keys(schema)) {
    switch (key) {
      case 'type': {
        const types = ([] as string[]).concat(schema.type as string | string[]);
        if (!types.some((t) => isType(instance, t))) {
          yield error(key, `${pythonRepr(instance)} is not of type ${types.map((t) => pythonRepr(t)).join(', ')}`, instance, schema);
        }
        break;
      }
      case 'enum':
        if (!(schema.enum as unknown[]).some((v) => equal(v, instance))) {
          yield error(key, `${pythonRepr(instance)} is not one of ${pythonRepr(schema.enum)}`, instance, schema);
        }
        break;
      case 'const':
        if (!equal(schema.const, instance)) yield error(key, `${pythonRepr(schema.const)} was expected`, instance, schema);
        break;
      case 'properties':
        if (!obj) break;
        for (const [name, sub] of Object.entries(schema.properties as Record<string, Schema>)) {
          if (Object.hasOwn(obj, name)) yield* descend(iterErrors(sub, obj[name]), name, [key, name]);
        }
        break;
      case 'patternProperties':
        if (!obj) break;
        for (const [pattern, sub] of Object.entries(schema.patternProperties as Record<string, Schema>)) {
          const re = new RegExp(pattern, 'u');
          for (const name of Object.keys(obj)) if (re.test(name)) yield* descend(iterErrors(sub, obj[name]), name, [key, pattern]);
        }
        break;
      case 'additionalProperties': {
        if (!obj) break;
        const patterns = Object.keys(schema.patternProperties ?? {}).map((p) => new RegExp(p, 'u'));
        const extras = Object.keys(obj).filter((k) => !Object.hasOwn(schema.properties ?? {}, k) && !patterns.some((re) => re.test(k)));
        const extra = schema.additionalProperties;
        if (typeof extra === 'object') {
          for (const name of extras) yield* descend(iterErrors(extra, obj[name]), name, [key]);
        } else if (extra === false && extras.length > 0) {
          const sorted = [...extras].sort();
          const verb = sorted.length === 1 ? 'was' : 'were';
          yield error(key, `Additional properties are not allowed (${sorted.map((k) => pythonRepr(k)).join(', ')} ${verb} unexpected)`, instance, schema);
        }
        break;
      }
      case 'required':
        if (!obj) break;
        for (const name of schema.required as string[]) {
          if (!Object.hasOwn(obj, name)) yield error(key, `${pythonRepr(name)} is a required property`, instance, schema);
        }
        break;
      case 'items':
        if (!Array.isArray(instance)) break;
        for (let i = 0; i < instance.length; i++) yield* descend(iterErrors(schema.items as Schema, instance[i]), i, [key]);
        break;
      case 'minItems':
      case 'minLength':
        if ((sizeOf(key, instance) ?? Infinity) < (schema[key] as number)) yield error(key, `${pythonRepr(instance)} is too short`, instance, schema);
        break;
      case 'maxItems':
      case 'maxLength':
        if ((sizeOf(key, instance) ?? -Infinity) > (schema[key] as number)) yield error(key, `${pythonRepr(instance)} is too long`, instance, schema);
        break;
      case 'minimum':
        if (typeof instance === 'number' && instance < (schema.minimum as number)) {
          yield error(key, `${pythonRepr(instance)} is less than the minimum of ${schema.minimum}`, instance, schema);
        }
        break;
      case 'maximum':
        if (typeof instance === 'number' && instance > (schema.maximum as number)) {
          yield error(key, `${pythonRepr(instance)} is greater than the maximum of ${schema.maximum}`, instance, schema);
        }
        break;
      case 'pattern':
        if (typeof instance === 'string' && !new RegExp(schema.pattern as string, 'u').test(instance)) {
          yield error(key, `${pythonRepr(instance)} does not match ${pythonRepr(schema.pattern)}`, instance, schema);
        }
        break;
      case 'anyOf': {
        const all: SchemaError[] = [];
        let matched = false;
        for (const [i, sub] of (schema.anyOf as Schema[]).entries()) {
          const errs = descend(iterErrors(sub, instance), null, [i]);
          if (errs.length === 0) {
            matched = true;
            break;
          }
          all.push(...errs);
        }
        if (!matched) yield error(key, `${pythonRepr(instance)} is not valid under any of the given schemas`, instance, schema, all);
        break;
      }
      default:
        break;
    }
  }
}

/**
 * jsonschema's `relevance` key as an order (greater is more relevant): a shallower error, then one not of
 * `anyOf`, then one whose value does not have the type its schema names.
 */
function compareRelevance(a: SchemaError, b: SchemaError): number {
  if (a.path.length !== b.path.length) return b.path.length - a.path.length;
  const weak = (e: SchemaError) => (e.keyword === 'anyOf' ? 0 : 1);
  if (weak(a) !== weak(b)) return weak(a) - weak(b);
  return (a.matchesType ? 0 : 1) - (b.matchesType ? 0 : 1);
}

/** `jsonschema.exceptions.best_match`: the most relevant error, then into a failed `anyOf`. */
function bestMatch(errors: SchemaError[]): SchemaError | null {
  let best: SchemaError | null = null;
  for (const e of errors) if (best === null || compareRelevance(e, best) > 0) best = e;
  while (best && best.context.length > 0) {
    const sorted = [...best.context].sort(compareRelevance);
    if (sorted.length >= 2 && compareRelevance(sorted[0] as SchemaError, sorted[1] as SchemaError) === 0) return best;
    best = sorted[0] as SchemaError;
  }
  return best;
}

/** The error `jsonschema.validate(instance, schema)` raises, or null when the instance is valid. */
export function schemaError(schema: TSchema, instance: unknown): SchemaError | null {
  return bestMatch([...iterErrors(schema as Schema, instance)]);
}

/** Returns `value` typed by `schema`, or throws `toError` of the error jsonschema would raise. */
export function checkSchema<S extends TSchema>(schema: S, value: unknown, toError: (e: SchemaError) => Error): Static<S> {
  const e = schemaError(schema, value);
  if (e) throw toError(e);
  return value as Static<S>;
}

const index = (word: string, path: Path) => (path.length === 0 ? word : `${word}[${path.map((p) => pythonRepr(p)).join('][')}]`);

/**
 * The error as Ironic's `args.schema` validator shortens it (the first three lines of `str(error)`):
 * `'usb' is not one of […]  Failed validating 'enum' in schema['properties']['device_type']`.
 */
export function shortSchemaMessage(e: SchemaError): string {
  return `${e.message}  Failed validating ${pythonRepr(e.keyword)} in ${index('schema', e.schemaPath.slice(0, -1))}`;
}

/**
 * The error as `str(error)` prints it, without the dump of the failing sub-schema:
 * the message, the keyword and schema path, and the instance path with the value.
 */
export function longSchemaMessage(e: SchemaError): string {
  return `${e.message}\n\nFailed validating ${pythonRepr(e.keyword)} in ${index('schema', e.schemaPath.slice(0, -1))}\n\nOn ${index('instance', e.path)}:\n    ${pythonRepr(e.instance)}`;
}
