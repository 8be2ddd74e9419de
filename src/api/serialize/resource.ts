/**
 * Field planning for the smaller resources (ports, port groups, chassis, conductors): every field
 * with the microversion that introduced it, the fields a list shows by default, and `fields=` checks
 * (unknown field 400, newer than the version 406).
 */
import { fail } from '../../shared/errors.js';
import { checkFieldsExist } from '../query.js';

/** A resource's fields: name -> minor version that introduced it. */
export type FieldVersions = Readonly<Record<string, number>>;

export interface Plan {
  fields: string[];
  /** All fields requested: add the sub-resource link fields too. */
  full: boolean;
}

/**
 * Which fields to return at `minor`. `requested` undefined means all fields of the version. Requested
 * fields must exist (`extraKnown` lists link fields also accepted) and be allowed at the version.
 */
export function planFields(versions: FieldVersions, minor: number, requested: readonly string[] | undefined, extraKnown: readonly string[] = []): Plan {
  if (requested === undefined) return { fields: Object.keys(versions).filter((f) => minor >= (versions[f] as number)), full: true };
  checkFieldsExist(requested, new Set([...Object.keys(versions), 'links', ...extraKnown]));
  for (const f of requested) {
    const v = versions[f];
    if (v !== undefined && minor < v) throw fail('fieldNotAvailable', { field: f, minor, min: v });
  }
  return { fields: requested.filter((f) => versions[f] !== undefined), full: false };
}

/** Throws NotAcceptable (406) when `body` sets a field newer than `minor`. */
export function rejectNewer(versions: FieldVersions, minor: number, body: Record<string, unknown>): void {
  for (const [f, v] of Object.entries(body)) {
    const min = versions[f];
    if (min !== undefined && minor < min && v !== undefined) {
      throw fail('fieldNotAcceptable', { field: f, minor, min });
    }
  }
}

/** Picks `plan.fields` from `full` (a complete representation). */
export function pick(full: Record<string, unknown>, plan: Plan): Record<string, unknown> {
  if (plan.full) return full;
  const out: Record<string, unknown> = {};
  for (const f of plan.fields) out[f] = full[f];
  out.links = full.links;
  return out;
}
