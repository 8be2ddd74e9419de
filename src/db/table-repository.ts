/**
 * The shape the small repositories share (chassis, ports, port groups, inspection rules, conductors):
 * create with a fresh or given UUID and the time stamps, get by a column, list a page with equality
 * filters, update by UUID, delete by UUID (optionally only a row nothing refers to), all, delete all.
 * One aggregate's file gives its table, row mapping, errors and whatever is particular to it.
 */
import type { Kysely, RawBuilder, SqlBool } from 'kysely';
import type { IngotError } from '../shared/errors.js';
import { newUuid, normalizeUuid } from '../shared/ids.js';
import { planPage, type SortSpec } from './paging.js';
import { guarded, type RepoContext, type ViolationMap } from './repo-context.js';
import { rowMapper } from './row-mapping.js';
import type { Database, TableSpec } from './schema.js';
import type { Page } from './store.js';

type Row = Record<string, unknown>;
/** The tables seen as plain rows: the generic code names its table and columns by string. */
type Tables = Record<string, Row>;

/** What one aggregate's table is and how its failures read. */
export interface TableRepositorySpec {
  table: keyof Database & string;
  /** How the row mapper names a record in its errors (`port has no writable field "x"`). */
  label: string;
  columns: TableSpec;
  /** Sorting and paging of {@link TableRepository.list}; its `notFound` names an unknown marker. Default: by id only. */
  sort?: SortSpec;
  /** The error when no row has the identifier asked for. */
  notFound: (ident: string | number) => IngotError;
  /**
   * The error for a duplicate value of each unique column (`…AlreadyExists`, `DuplicateName`), given the
   * record fields written (normalised, with the UUID); a column not named rethrows the driver's error.
   */
  unique?: Readonly<Record<string, (values: Row) => IngotError>>;
  /** The error when a row the record refers to does not exist. */
  foreignKey?: () => IngotError;
  /**
   * Rows that others refer to stay: the delete takes the row only where `condition` holds (one statement,
   * so a referrer added at the same time cannot be orphaned); `refused(uuid)` is the error otherwise.
   */
  deleteOnlyIf?: { condition: RawBuilder<SqlBool>; refused: (uuid: string) => IngotError };
}

/** The generic operations of one table; the aggregate's repository is built from them. */
export interface TableRepository<T> {
  /** Inserts a record: the given UUID (normalised) or a new one, `created_at` now, `updated_at` null. */
  create(values: Row & { uuid?: string | null | undefined }): Promise<T>;
  /** The row whose `column` equals `value`; `notFound(ident)` when none. */
  getBy(column: string, value: unknown, ident: string | number): Promise<T>;
  /** The row of `uuid` (any case). */
  get(uuid: string): Promise<T>;
  /** A page of rows whose columns equal `where`'s defined values. */
  list(page: Page, where?: Row): Promise<T[]>;
  /** Every row, in creation order. */
  all(): Promise<T[]>;
  /** Writes `changes` and `updated_at` now to the row of `uuid` and returns it. */
  update(uuid: string, changes: Row): Promise<T>;
  /** Deletes the row of `uuid` (see {@link TableRepositorySpec.deleteOnlyIf}). */
  delete(uuid: string): Promise<void>;
  /** Deletes every row; returns how many there were. */
  deleteAll(): Promise<number>;
  /** The record of a row the aggregate read with a query of its own. */
  toRecord(row: unknown): T;
}

/** Builds the generic operations of `spec.table`. */
export function tableRepository<T>(ctx: RepoContext, spec: TableRepositorySpec): TableRepository<T> {
  // NOTE: the typed Kysely<Database> cannot name a table chosen at run time; the generic code sees plain rows.
  const db = ctx.db as unknown as Kysely<Tables>;
  const { table, notFound } = spec;
  const mapper = rowMapper<T>(spec.label, spec.columns);
  const stamped = spec.columns.columns.includes('updated_at');
  const violations = (values: Row): ViolationMap => ({
    unique: (column) => (spec.unique && Object.hasOwn(spec.unique, column) ? spec.unique[column]!(values) : undefined),
    ...(spec.foreignKey ? { foreignKey: spec.foreignKey } : {}),
  });
  const sort: SortSpec = spec.sort ?? { table, sortable: new Set(['id']), notNull: new Set(), notFound };

  async function getBy(column: string, value: unknown, ident: string | number): Promise<T> {
    const row = await db.selectFrom(table).selectAll().where(column, '=', value).executeTakeFirst();
    if (!row) throw notFound(ident);
    return mapper.toRecord(row);
  }

  return {
    async create(values) {
      const uuid = values.uuid ? normalizeUuid(values.uuid) : newUuid();
      const fields: Row = { ...values, uuid, created_at: ctx.now(), ...(stamped ? { updated_at: null } : {}) };
      const row = mapper.toRow(fields);
      const inserted = await guarded(ctx, violations(fields), () => db.insertInto(table).values(row).returningAll().executeTakeFirstOrThrow());
      return mapper.toRecord(inserted);
    },

    getBy,

    get: (uuid) => getBy('uuid', normalizeUuid(uuid), uuid),

    async list(page, where = {}) {
      const plan = await planPage(ctx, sort, page);
      let q = db.selectFrom(table).selectAll();
      for (const [column, value] of Object.entries(where)) if (value !== undefined) q = q.where(column, '=', value);
      if (plan.where) q = q.where(plan.where);
      for (const o of plan.orderBy) q = q.orderBy(o);
      if (plan.limit !== undefined) q = q.limit(plan.limit);
      return (await q.execute()).map((r) => mapper.toRecord(r));
    },

    async all() {
      return (await db.selectFrom(table).selectAll().orderBy('id').execute()).map((r) => mapper.toRecord(r));
    },

    async update(uuid, changes) {
      const id = normalizeUuid(uuid);
      const row = mapper.toRow({ ...changes, updated_at: ctx.now() });
      const updated = await guarded(ctx, violations({ ...changes, uuid: id }), () =>
        db.updateTable(table).set(row).where('uuid', '=', id).returningAll().executeTakeFirst(),
      );
      if (!updated) throw notFound(uuid);
      return mapper.toRecord(updated);
    },

    async delete(uuid) {
      const id = normalizeUuid(uuid);
      let q = db.deleteFrom(table).where('uuid', '=', id);
      if (spec.deleteOnlyIf) q = q.where(spec.deleteOnlyIf.condition);
      const res = await q.executeTakeFirst();
      if (Number(res.numDeletedRows) > 0) return;
      if (!spec.deleteOnlyIf) throw notFound(uuid);
      const exists = await db.selectFrom(table).select('id').where('uuid', '=', id).executeTakeFirst();
      if (!exists) throw notFound(uuid);
      throw spec.deleteOnlyIf.refused(id);
    },

    async deleteAll() {
      const res = await db.deleteFrom(table).executeTakeFirst();
      return Number(res.numDeletedRows);
    },

    toRecord: (row) => mapper.toRecord(row),
  };
}
