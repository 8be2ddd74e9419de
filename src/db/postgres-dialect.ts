/**
 * PostgreSQL through pg's pool. 64-bit integers (counts, ids) are parsed to numbers: Ingot's values
 * stay far below 2^53.
 */
import type { Logger } from '../shared/logger.js';
import { Kysely, PostgresDialect } from 'kysely';
import type { ConstraintViolation, StoreDialect } from './dialect.js';
import { parseUniqueIndexName } from './dialect.js';
import type { Database } from './schema.js';

const INT8_OID = 20;

/**
 * Connects a pool to `url` (a postgres:// or postgresql:// URL). NOTE: `pg` is imported here, on first
 * use, not at module load: a server on the embedded SQLite file never loads it (a few MiB resident).
 */
export async function openPostgresDialect(opts: { url: string; poolSize: number; logger?: Logger | undefined }): Promise<StoreDialect> {
  const { default: pg } = await import('pg');
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === INT8_OID ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
  };
  // A server that does not answer fails start-up after 10 s with the reason, instead of hanging.
  const pool = new pg.Pool({ connectionString: opts.url, max: opts.poolSize, types, connectionTimeoutMillis: 10_000 });
  // An idle client losing its connection (server restart) must not crash the process; the pool replaces it.
  pool.on('error', (err) => opts.logger?.warn({ err }, `PostgreSQL connection lost: ${err.message}; the pool reconnects`));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { name: 'postgres', db, serialType: 'serial', autoIncrement: false, violation: postgresViolation };
}

/** pg errors carry the SQLSTATE (`23505` unique, `23503` foreign key) and the constraint name. */
function postgresViolation(err: unknown): ConstraintViolation | undefined {
  const e = err as { code?: unknown; constraint?: unknown; table?: unknown; detail?: unknown } | null;
  if (!e || typeof e.code !== 'string') return undefined;
  if (e.code === '23503') return { kind: 'foreign_key' };
  if (e.code !== '23505') return undefined;
  const parsed = typeof e.constraint === 'string' ? parseUniqueIndexName(e.constraint) : undefined;
  if (parsed) return { kind: 'unique', ...parsed };
  const key = typeof e.detail === 'string' ? /Key \(([^)]+)\)/.exec(e.detail) : null;
  if (key && typeof e.table === 'string') return { kind: 'unique', table: e.table, column: key[1]! };
  return undefined;
}
