/**
 * Row <-> record mapping, in one place for every table: JSON text columns are parsed and serialized,
 * 0/1 flags become booleans and back. Records are built in place on the fresh row objects the driver
 * returns, so listing many rows costs one pass with no extra allocation per column.
 */
import { fail } from '../shared/errors.js';
import type { TableSpec } from './schema.js';

/** Columns whose JSON default is an empty array rather than an empty object. */
const ARRAY_COLUMNS = new Set(['traits', 'drivers', 'conditions', 'actions']);

/** Converts rows of one table to records and record fields to column values. */
export interface RowMapper<T> {
  /** Turns a row as read into the record (reuses the row object). */
  toRecord(row: unknown): T;
  /**
   * Turns record fields into column values; `undefined` fields and columns the store manages
   * ({@link TableSpec.managed}) are left out, unknown fields rejected.
   */
  toRow(values: object): Record<string, unknown>;
}

/** Builds the mapper of a table from its {@link TableSpec}. */
export function rowMapper<T>(table: string, spec: TableSpec): RowMapper<T> {
  const columns = new Set(spec.columns);
  const json = new Set(spec.json);
  const flags = new Set(spec.flags);
  const managed = new Set(spec.managed ?? []);
  const jsonList = [...spec.json];
  const flagList = [...spec.flags];
  return {
    toRecord(row: unknown): T {
      const r = row as Record<string, unknown>;
      for (const c of jsonList) {
        const v = r[c];
        // Most dicts are empty: skip the parser for them.
        if (v === '{}') r[c] = {};
        else if (v === '[]') r[c] = [];
        else r[c] = typeof v === 'string' ? JSON.parse(v) : ARRAY_COLUMNS.has(c) ? [] : {};
      }
      for (const c of flagList) {
        const v = r[c];
        r[c] = v === null || v === undefined ? null : v === 1 || v === true || v === '1';
      }
      return r as T;
    },
    toRow(values: object): Record<string, unknown> {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(values)) {
        if (v === undefined || managed.has(k)) continue;
        if (!columns.has(k) || k === 'id') {
          throw fail('fieldNotWritable', { table, field: k });
        }
        if (json.has(k)) out[k] = v === null ? (ARRAY_COLUMNS.has(k) ? '[]' : '{}') : JSON.stringify(v);
        else if (flags.has(k)) out[k] = v === null ? null : v ? 1 : 0;
        else out[k] = v;
      }
      return out;
    },
  };
}
