/**
 * What every repository is built with, and the helpers they share: the current time and the mapping of
 * constraint violations to Ingot's errors.
 */
import type { Kysely } from 'kysely';
import type { IngotError } from '../shared/errors.js';
import type { StoreDialect } from './dialect.js';
import type { Database } from './schema.js';

export interface RepoContext {
  readonly db: Kysely<Database>;
  readonly dialect: StoreDialect;
  /** Current time as ISO-8601 UTC text. */
  now(): string;
}

/** How one repository reports violations of its constraints. */
export interface ViolationMap {
  /** The error for a duplicate value of `column`, or undefined to rethrow the driver error. */
  unique?: (column: string) => IngotError | undefined;
  foreignKey?: () => IngotError;
}

/** Runs `op` and turns constraint violations into the repository's errors. */
export async function guarded<T>(ctx: RepoContext, map: ViolationMap, op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    const v = ctx.dialect.violation(err);
    if (v?.kind === 'unique' && map.unique) {
      const mapped = map.unique(v.column);
      if (mapped) throw mapped;
    }
    if (v?.kind === 'foreign_key' && map.foreignKey) throw map.foreignKey();
    throw err;
  }
}
