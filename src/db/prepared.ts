/**
 * Queries compiled once and run many times with new parameters. Building and compiling a kysely query
 * costs more than a point lookup on SQLite; the hottest reads (a node by UUID, name or id) skip it.
 * The SQL is still produced by kysely for the store's dialect.
 */
import type { Compilable, Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Compiles `query` (built with placeholder values) and returns a runner taking the real values in order. */
export function prepared<R>(db: Kysely<Database>, query: Compilable<R>): (...params: unknown[]) => Promise<R[]> {
  const compiled = query.compile();
  return async (...params: unknown[]) => (await db.executeQuery<R>({ ...compiled, parameters: params })).rows;
}
