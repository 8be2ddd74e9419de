/** `GET /v1/nodes/{node}/inventory` (1.81): the hardware inventory and plugin data of the last inspection. */
import type { FastifyInstance } from 'fastify';
import { fail } from '../../shared/errors.js';
import type { ApiDeps } from '../context.js';
import { getNode } from '../resolve.js';
import { requireUrlVersion } from '../microversion.js';

type IdParams = { Params: { node: string } };

export function nodeInventoryRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get<IdParams>('/v1/nodes/:node/inventory', async (req) => {
    requireUrlVersion(req.apiMinor, 81);
    const node = await getNode(deps, req.params.node, req.apiMinor);
    const data = await deps.store.inventories.get(node.id);
    if (!data) throw fail('InventoryNotFound', { node: node.uuid });
    return { inventory: data.inventory, plugin_data: data.plugin_data };
  });
}
