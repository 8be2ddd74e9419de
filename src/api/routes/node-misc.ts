/**
 * Node sub-resources Ingot answers without a backing feature yet: VIFs (1.28, none attached), BIOS
 * settings (1.40, none recorded) and the inspection inventory (1.81; 404 when none was stored).
 */
import type { FastifyInstance } from 'fastify';
import { fail } from '../../shared/errors.js';
import type { ApiDeps } from '../context.js';
import { getNode } from '../lookup.js';
import { requireUrlVersion } from '../microversion.js';

type IdParams = { Params: { node: string } };

/** Registers the VIF, BIOS and inventory routes. */
export function nodeMiscRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get<IdParams>('/v1/nodes/:node/vifs', async (req) => {
    requireUrlVersion(req.apiMinor, 28);
    await getNode(deps, req.params.node, req.apiMinor);
    return { vifs: [] };
  });

  app.get<IdParams>('/v1/nodes/:node/bios', async (req) => {
    requireUrlVersion(req.apiMinor, 40);
    await getNode(deps, req.params.node, req.apiMinor);
    return { bios: [] };
  });

  app.get<IdParams>('/v1/nodes/:node/inventory', async (req) => {
    requireUrlVersion(req.apiMinor, 81);
    const node = await getNode(deps, req.params.node, req.apiMinor);
    throw fail('NotFound', `Node inventory for node ${node.uuid} could not be found.`);
  });
}
