/**
 * What differs between the SQL databases Ingot runs on, behind one small interface (after kysely's
 * `DialectAdapter`). Repositories and migrations call it and never test which dialect they run on.
 */
import type { ColumnDataType, Kysely } from 'kysely';
import type { Database } from './schema.js';

/** A violated constraint, identified portably. */
export type ConstraintViolation =
  | { kind: 'unique'; table: string; column: string }
  | { kind: 'foreign_key' };

/** One supported database. */
export interface StoreDialect {
  readonly name: 'sqlite' | 'postgres';
  /** The kysely instance, connected and configured (pragmas, pool). */
  readonly db: Kysely<Database>;
  /** Column type of an auto-incrementing integer primary key. */
  readonly serialType: ColumnDataType;
  /** Whether the primary key column needs kysely's `autoIncrement()` modifier. */
  readonly autoIncrement: boolean;
  /** Recognizes a constraint violation in a driver error; undefined for any other error. */
  violation(err: unknown): ConstraintViolation | undefined;
}

/**
 * Name of the unique index on `table(column)`. Both dialects report it (PostgreSQL by constraint name,
 * SQLite by `table.column`), so violations map back to the column.
 */
export function uniqueIndexName(table: string, column: string): string {
  return `uq_${table}__${column}`;
}

/** Inverse of {@link uniqueIndexName}. */
export function parseUniqueIndexName(name: string): { table: string; column: string } | undefined {
  const m = /^uq_(.+)__(.+)$/.exec(name);
  return m ? { table: m[1]!, column: m[2]! } : undefined;
}
