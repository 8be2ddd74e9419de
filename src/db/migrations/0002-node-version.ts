/**
 * A row version on nodes: every write of a node row adds one to it (in the same UPDATE), so readers can
 * tell whether a node changed since they last saw it without reading the whole row. Existing rows
 * start at 0.
 */
import type { Kysely, Migration } from 'kysely';

/** The migration (the same on every dialect). */
export function nodeVersionMigration(): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('nodes').addColumn('version', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    },
  };
}
