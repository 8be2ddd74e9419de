/**
 * Node sub-resources Ingot answers without a backing feature yet: VIFs (1.28, none attached) and BIOS
 * settings (1.40, none recorded).
 */
import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../context.js';
import { getNode } from '../resolve.js';
import { requireUrlVersion } from '../microversion.js';

type IdParams = { Params: { node: string } };

/** Registers the VIF and BIOS routes. */
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
}
