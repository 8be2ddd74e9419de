/**
 * SQLite through better-sqlite3: one file in the data directory, WAL journal, synchronous=NORMAL
 * (durable across process crashes, fast commits), foreign keys on, a busy timeout for other processes.
 * Prepared statements are cached by SQL text: kysely prepares every query anew, and preparing costs
 * more than running a point lookup.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';
import type { ConstraintViolation, StoreDialect } from './dialect.js';
import { parseUniqueIndexName } from './dialect.js';
import type { Database } from './schema.js';

/** Statements kept prepared; the set of distinct queries Ingot issues is small. */
const STATEMENT_CACHE_SIZE = 500;

/** The SQLite file inside `dataDir`. */
export function sqliteFile(dataDir: string): string {
  return path.join(dataDir, 'ingot.sqlite');
}

/** Opens (creating when needed) the SQLite database file of `dataDir`. */
export function openSqliteDialect(opts: { dataDir: string; busyTimeoutMs: number }): StoreDialect {
  mkdirSync(opts.dataDir, { recursive: true });
  const raw = new BetterSqlite3(sqliteFile(opts.dataDir), { timeout: opts.busyTimeoutMs });
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = NORMAL');
  // NOTE: checkpoint the WAL every ~40 MB instead of every ~4 MB: hot index pages are copied to the
  // database file far less often, which made a node insert ~25 % cheaper. SQLite still checkpoints and
  // removes the WAL when the database is closed.
  raw.pragma('wal_autocheckpoint = 10000');
  raw.pragma('foreign_keys = ON');
  raw.pragma(`busy_timeout = ${Math.max(0, Math.floor(opts.busyTimeoutMs))}`);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cachingDatabase(raw) }) });
  return { name: 'sqlite', db, serialType: 'integer', autoIncrement: true, violation: sqliteViolation };
}

/** Wraps the database so that `prepare` reuses statements (LRU by SQL text). */
function cachingDatabase(raw: BetterSqlite3.Database): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => {
      cache.clear();
      raw.close();
    },
    prepare: (sql: string) => {
      let stmt = cache.get(sql);
      if (stmt) {
        cache.delete(sql);
      } else {
        stmt = rowBuilding(raw.prepare(sql));
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      }
      cache.set(sql, stmt);
      return stmt;
    },
  };
}

/**
 * Reads rows as arrays and builds the objects in JavaScript: better-sqlite3 builds each row object
 * property by property in native code, which is several times slower for wide rows (a node has 62
 * columns) than filling objects of one shared shape here.
 */
function rowBuilding(stmt: BetterSqlite3.Statement): SqliteStatement {
  if (!stmt.reader) return stmt as unknown as SqliteStatement;
  stmt.raw(true);
  let n = 0;
  let fill: (values: unknown[]) => Record<string, unknown> = () => ({});
  const compile = () => {
    const names = stmt.columns().map((c) => c.name);
    n = names.length;
    fill = rowLiteral(names);
  };
  compile();
  const build = (values: unknown[]): Record<string, unknown> => {
    // Another process changed the schema and SQLite re-prepared the statement (`select *`).
    if (values.length !== n) compile();
    return fill(values);
  };
  return {
    reader: true,
    all: (parameters: ReadonlyArray<unknown>) => (stmt.all(parameters) as unknown[][]).map(build),
    run: (parameters: ReadonlyArray<unknown>) => stmt.run(parameters),
    *iterate(parameters: ReadonlyArray<unknown>) {
      for (const values of stmt.iterate(parameters) as IterableIterator<unknown[]>) yield build(values);
    },
  };
}

/**
 * A function building a row object from its values as one object literal (`{"id": v[0], …}`).
 * NOTE: an object literal of fixed keys is created in one step with its final shape; assigning 62
 * properties one by one took most of the time of reading a page of 1000 nodes.
 */
function rowLiteral(names: readonly string[]): (values: unknown[]) => Record<string, unknown> {
  // `__proto__: …` in a literal would set the prototype instead of a property: build those rows by assignment.
  if (names.includes('__proto__') || new Set(names).size !== names.length) {
    return (values) => {
      const row: Record<string, unknown> = {};
      for (let i = 0; i < names.length; i++) row[names[i]!] = values[i];
      return row;
    };
  }
  // Keys are JSON string literals (valid, quoted JavaScript property names), so any column name is safe.
  const body = names.map((name, i) => `${JSON.stringify(name)}: v[${i}]`).join(', ');
  return new Function('v', `return { ${body} };`) as (values: unknown[]) => Record<string, unknown>;
}

/** better-sqlite3 errors carry SQLite's extended result code and `UNIQUE constraint failed: t.c[, t.c2]`. */
function sqliteViolation(err: unknown): ConstraintViolation | undefined {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e.code !== 'string') return undefined;
  if (e.code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return { kind: 'foreign_key' };
  if (e.code !== 'SQLITE_CONSTRAINT_UNIQUE' && e.code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') return undefined;
  const msg = String(e.message);
  const cols = /constraint failed: ([\w.]+)/.exec(msg);
  if (cols) {
    const [table, column] = cols[1]!.split('.');
    if (table && column) return { kind: 'unique', table, column };
  }
  const idx = /index '([^']+)'/.exec(msg);
  const parsed = idx ? parseUniqueIndexName(idx[1]!) : undefined;
  return parsed ? { kind: 'unique', ...parsed } : undefined;
}
