/**
 * Stored inspection rules: `inspection_rules` (Ironic's format, API 1.96) and `legacy_rules` (the
 * ironic-inspector `/v1/rules` format). Conditions and actions are JSON text; rules are read whole, all
 * of them at each inspection, so only the UUID is indexed.
 */
import type { Kysely, Migration } from 'kysely';
import type { StoreDialect } from '../dialect.js';
import { uniqueIndexName } from '../dialect.js';

/** The migration, for the given dialect's id column. */
export function inspectionRulesMigration(dialect: Pick<StoreDialect, 'serialType' | 'autoIncrement'>): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('inspection_rules')
        .addColumn('id', dialect.serialType, (c) => (dialect.autoIncrement ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('uuid', 'varchar(36)', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('sensitive', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('phase', 'varchar(16)', (c) => c.notNull().defaultTo('main'))
        .addColumn('conditions', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('actions', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text')
        .execute();
      await db.schema.createIndex(uniqueIndexName('inspection_rules', 'uuid')).unique().on('inspection_rules').column('uuid').execute();

      await db.schema
        .createTable('legacy_rules')
        .addColumn('id', dialect.serialType, (c) => (dialect.autoIncrement ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('uuid', 'varchar(36)', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('scope', 'text')
        .addColumn('conditions', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('actions', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex(uniqueIndexName('legacy_rules', 'uuid')).unique().on('legacy_rules').column('uuid').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('legacy_rules').execute();
      await db.schema.dropTable('inspection_rules').execute();
    },
  };
}
