/** Inspection data per node: the last inventory and plugin data, replaced by each inspection. */
import type { JsonObject } from '../domain/node.js';
import { guarded, type RepoContext } from './repo-context.js';
import { nodeNotFound } from './nodes.js';
import type { InventoryRecord, InventoryRepository } from './store.js';

export function inventoryRepository(ctx: RepoContext): InventoryRepository {
  const { db } = ctx;
  return {
    async put(nodeId: number, inventory: JsonObject, pluginData: JsonObject): Promise<void> {
      const now = ctx.now();
      const row = { node_id: nodeId, inventory: JSON.stringify(inventory), plugin_data: JSON.stringify(pluginData), created_at: now, updated_at: null };
      await guarded(ctx, { foreignKey: () => nodeNotFound(nodeId) }, () =>
        db
          .insertInto('node_inventory')
          .values(row)
          .onConflict((oc) => oc.column('node_id').doUpdateSet({ inventory: row.inventory, plugin_data: row.plugin_data, updated_at: now }))
          .execute(),
      );
    },

    async get(nodeId: number): Promise<InventoryRecord | null> {
      const row = await db.selectFrom('node_inventory').selectAll().where('node_id', '=', nodeId).executeTakeFirst();
      if (!row) return null;
      return {
        inventory: JSON.parse(row.inventory) as JsonObject,
        plugin_data: JSON.parse(row.plugin_data) as JsonObject,
        created_at: row.created_at,
        updated_at: row.updated_at,
      };
    },
  };
}
