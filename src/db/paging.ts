/**
 * Sorting and keyset pagination shared by the repositories. A page continues after the marker row
 * (found by UUID) in the order (sort key, id); NULL sort values come first in ascending order on every
 * dialect (SQLite and PostgreSQL disagree by default, so the order is spelled out).
 */
import { sql, type Expression, type SqlBool, type RawBuilder } from 'kysely';
import { fail, type IngotError } from '../shared/errors.js';
import type { Page } from './store.js';
import type { RepoContext } from './repo-context.js';

/** How one table may be sorted and paged. */
export interface SortSpec {
  readonly table: string;
  /** Columns a caller may sort by. */
  readonly sortable: ReadonlySet<string>;
  /** Sortable columns that are never NULL (cheaper ordering). */
  readonly notNull: ReadonlySet<string>;
  /** Column the marker names a row by (default `uuid`). */
  readonly markerColumn?: string;
  /** The error when the marker names no row. */
  readonly notFound: (marker: string) => IngotError;
}

/** The resolved order and keyset condition of one page. */
export interface PagePlan {
  where?: Expression<SqlBool>;
  orderBy: RawBuilder<unknown>[];
  limit?: number;
}

/** Validates the sort request and, with a marker, looks up where the page starts. */
export async function planPage(ctx: RepoContext, spec: SortSpec, page: Page): Promise<PagePlan> {
  const key = page.sortKey ?? 'id';
  if (!spec.sortable.has(key)) {
    throw fail('invalidSortKey', { key });
  }
  const dir = page.sortDir ?? 'asc';
  if (dir !== 'asc' && dir !== 'desc') {
    throw fail('invalidSortDirection', { dir: String(dir) });
  }
  const col = sql.ref(key);
  const nullable = key !== 'id' && !spec.notNull.has(key);
  const d = sql.raw(dir);
  const orderBy: RawBuilder<unknown>[] = [];
  if (nullable) orderBy.push(sql`case when ${col} is null then 0 else 1 end ${d}`);
  if (key !== 'id') orderBy.push(sql`${col} ${d}`);
  orderBy.push(sql`${sql.ref('id')} ${d}`);

  const plan: PagePlan = { orderBy };
  if (page.limit > 0) plan.limit = page.limit;
  if (page.marker !== undefined && page.marker !== '') {
    const markerCol = spec.markerColumn ?? 'uuid';
    const found = await sql<{ k: unknown; id: number }>`select ${col} as k, id from ${sql.table(spec.table)} where ${sql.ref(markerCol)} = ${page.marker}`.execute(ctx.db);
    const row = found.rows[0];
    if (!row) throw spec.notFound(page.marker);
    plan.where = keyset(col, nullable, dir, row.k, row.id);
  }
  return plan;
}

function keyset(col: RawBuilder<unknown>, nullable: boolean, dir: 'asc' | 'desc', v: unknown, id: number): Expression<SqlBool> {
  const idRef = sql.ref('id');
  if (dir === 'asc') {
    if (v === null) return sql<SqlBool>`((${col} is null and ${idRef} > ${id}) or ${col} is not null)`;
    return sql<SqlBool>`(${col} > ${v} or (${col} = ${v} and ${idRef} > ${id}))`;
  }
  if (v === null) return sql<SqlBool>`(${col} is null and ${idRef} < ${id})`;
  if (nullable) return sql<SqlBool>`(${col} < ${v} or (${col} = ${v} and ${idRef} < ${id}) or ${col} is null)`;
  return sql<SqlBool>`(${col} < ${v} or (${col} = ${v} and ${idRef} < ${id}))`;
}
