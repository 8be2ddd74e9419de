/**
 * The inspection data of each node: the inventory the agent (or an out-of-band inspection) reported and
 * the processing's plugin data, one row per node, replaced by each inspection and deleted with the node.
 * Stored as JSON text like every other document column.
 */
import type { Kysely, Migration } from 'kysely';

/** The migration (the same on every dialect). */
export function nodeInventoryMigration(): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('node_inventory')
        .addColumn('node_id', 'integer', (c) => c.primaryKey().references('nodes.id').onDelete('cascade'))
        .addColumn('inventory', 'text', (c) => c.notNull())
        .addColumn('plugin_data', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text')
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('node_inventory').execute();
    },
  };
}
