/**
 * Query-string handling shared by the collections: booleans as Ironic reads them, `limit`, `sort_dir`,
 * `fields` / `detail` and the `next` link (present only when a full page was returned).
 */
import type { Static, TObject, TOptional, TString } from 'typebox';
import { fail } from '../shared/errors.js';
import { toBool } from '../shared/strict-bool.js';
import { buildUrl } from './links.js';
import { requireVersion } from './microversion.js';

export type Query = Record<string, string | string[] | undefined>;

/** A single query value (the last one when repeated). */
export function one(query: Query, name: string): string | undefined {
  const v = query[name];
  if (Array.isArray(v)) return v[v.length - 1];
  return v;
}

/**
 * The query parameters a schema of `protocol/` names (each an optional string), one value each (the last
 * when repeated), typed by the schema; other parameters are left out.
 */
export function queryParams<S extends TObject<Record<string, TOptional<TString>>>>(query: unknown, schema: S): Static<S> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(schema.properties)) {
    const v = one(query as Query, key);
    if (v !== undefined) out[key] = v;
  }
  return out as Static<S>;
}

/** An optional boolean query parameter. */
export function boolParam(query: Query, name: string): boolean | undefined {
  const v = one(query, name);
  return v === undefined ? undefined : toBool(name, v);
}

/** `limit`: absent means `maxLimit`; 0, negative or non-integers are rejected; capped at `maxLimit`. */
export function parseLimit(query: Query, maxLimit: number): number {
  const v = one(query, 'limit');
  if (v === undefined || v === '') return maxLimit;
  if (!/^-?\d+$/.test(v.trim())) throw fail('limitNotInteger', { limit: v });
  const n = Number(v);
  if (n <= 0) throw fail('limitNotPositive');
  return Math.min(n, maxLimit);
}

export function parseSortDir(query: Query): 'asc' | 'desc' {
  const v = one(query, 'sort_dir') ?? 'asc';
  if (v !== 'asc' && v !== 'desc') throw fail('invalidSortDirection', { dir: v });
  return v;
}

/** `fields=a,b` as a list (1.8+), or undefined. */
export function parseFields(query: Query, minor: number): string[] | undefined {
  const v = one(query, 'fields');
  if (v === undefined) return undefined;
  requireVersion(minor, 8, 'the fields parameter');
  return v.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

/**
 * Ironic's `get_request_return_fields`: `detail` (1.43+) and `fields` are exclusive; with neither the
 * defaults apply. Returns undefined for "all fields".
 */
export function returnFields(
  query: Query,
  minor: number,
  defaults: readonly string[],
  detailMinVersion = 43,
): string[] | undefined {
  const fields = parseFields(query, minor);
  const rawDetail = one(query, 'detail');
  let detail: boolean | undefined;
  if (rawDetail !== undefined) {
    if (minor < detailMinVersion) throw fail('detailNeedsVersion', { detail: rawDetail });
    detail = toBool('detail', rawDetail);
  }
  if (fields !== undefined && detail) throw fail('detailWithFields');
  if (fields === undefined && !detail) return [...defaults];
  return fields;
}

/** Ironic's `check_for_invalid_fields`: every requested field must exist on the object. */
export function checkFieldsExist(fields: readonly string[] | undefined, known: ReadonlySet<string>): void {
  if (!fields) return;
  const bad = fields.filter((f) => !known.has(f));
  if (bad.length) throw fail('fieldsUnknown', { fields: bad.join(', ') });
}

/**
 * The `next` link of a page: only when the page is full. Carries the request's other parameters
 * (filters, sort, fields, detail) plus `limit` and `marker`.
 */
export function nextLink(
  base: string,
  resource: string,
  count: number,
  limit: number,
  lastUuid: string | undefined,
  query: Query,
): string | undefined {
  if (count === 0 || count !== limit || lastUuid === undefined) return undefined;
  let args = '?';
  for (const [k, v] of Object.entries(query)) {
    if (k === 'limit' || k === 'marker' || v === undefined) continue;
    const value = Array.isArray(v) ? v[v.length - 1] : v;
    args += `${k}=${encodeURIComponent(value ?? '')}&`;
  }
  args += `limit=${limit}&marker=${lastUuid}`;
  return buildUrl(base, resource, args);
}
