/**
 * Port names (API 1.88) are unique when set and NULL on most ports. The column and a plain unique
 * index came with the initial schema; this makes the index partial (`WHERE name IS NOT NULL`), as the
 * node name's has always been: lookups `name = ?` and uniqueness are unchanged, and ports without a
 * name no longer have index entries (on SQLite the index of 200,000 unnamed ports shrank from 495 pages
 * to 1). Both dialects support partial unique indexes; the index keeps its name, so a duplicate still
 * maps back to the `name` column.
 */
import type { Kysely, Migration } from 'kysely';
import { uniqueIndexName } from '../dialect.js';

const INDEX = uniqueIndexName('ports', 'name');

/** The migration (the same on every dialect). */
export function portNameMigration(): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex(INDEX).execute();
      await db.schema.createIndex(INDEX).unique().on('ports').column('name').where('name', 'is not', null).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex(INDEX).execute();
      await db.schema.createIndex(INDEX).unique().on('ports').column('name').execute();
    },
  };
}
