/**
 * Building blocks of the wire schemas of `protocol/` (TypeBox, so each schema is a JSON Schema and a
 * TypeScript type at once): the shapes Ironic's bodies use over and over. `protocol/` builds its schemas
 * with TypeBox's type builder alone (`typebox/type`): the agent's bundle carries it (+27 KB) where all of
 * TypeBox would add 220 KB and ~10 ms to every start of the ramdisk agent.
 */
import type { TSchema } from 'typebox';
import * as Type from 'typebox/type';
import type { JsonObject } from '../shared/json.js';

/** `T` or JSON null. */
export const nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/** A free-form JSON object (`extra`, `driver_info`, a command's `params`, …). */
export const jsonObject = () => Type.Unsafe<JsonObject>(Type.Object({}));

/** A string out of `values` (JSON Schema `{type: string, enum}`, as Ironic's schemas write it). */
export const stringEnum = <const V extends readonly string[]>(values: V) => Type.Unsafe<V[number]>(Type.String({ enum: [...values] }));

/** An optional string that may also be null (Ironic's `args.string`). */
export const optionalString = () => Type.Optional(nullable(Type.String()));

/** A boolean, or one of its string spellings (`"true"`, `"off"`, …), or null; read by `shared/strict-bool.ts`. */
export const boolish = () => Type.Optional(Type.Union([Type.Boolean(), Type.String(), Type.Null()]));
