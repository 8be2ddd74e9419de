/**
 * `/v1/nodes/{node}/traits` (1.37): list, replace all, add one, remove one or all. Trait names follow
 * Ironic's rule (`protocol/api/traits.ts`); how many a node may have is the conductor's to check.
 */
import type { FastifyInstance } from 'fastify';
import { TraitsBody } from '../../protocol/api/bodies.js';
import { checkTrait } from '../../protocol/api/traits.js';
import { fail } from '../../shared/errors.js';
import type { ApiDeps } from '../context.js';
import { getNode } from '../resolve.js';
import { requireUrlVersion } from '../microversion.js';
import { checkBody } from '../validate.js';

type IdParams = { Params: { node: string } };
type TraitParams = { Params: { node: string; trait: string } };

/** Registers the trait routes. */
export function nodeTraitRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get<IdParams>('/v1/nodes/:node/traits', async (req) => {
    requireUrlVersion(req.apiMinor, 37);
    const node = await getNode(deps, req.params.node, req.apiMinor);
    return { traits: [...node.traits].sort() };
  });

  app.put<IdParams>('/v1/nodes/:node/traits', async (req, reply) => {
    requireUrlVersion(req.apiMinor, 37);
    const body = checkBody('traits request', req.body, TraitsBody);
    const traits = body.traits.map(checkTrait);
    const node = await getNode(deps, req.params.node, req.apiMinor);
    await deps.conductor.setTraits(node.uuid, [...new Set(traits)]);
    return reply.code(204).send();
  });

  app.put<TraitParams>('/v1/nodes/:node/traits/:trait', async (req, reply) => {
    requireUrlVersion(req.apiMinor, 37);
    const trait = checkTrait(req.params.trait);
    const node = await getNode(deps, req.params.node, req.apiMinor);
    await deps.conductor.addTrait(node.uuid, trait);
    return reply.code(204).send();
  });

  app.delete<IdParams>('/v1/nodes/:node/traits', async (req, reply) => {
    requireUrlVersion(req.apiMinor, 37);
    const node = await getNode(deps, req.params.node, req.apiMinor);
    await deps.conductor.setTraits(node.uuid, []);
    return reply.code(204).send();
  });

  app.delete<TraitParams>('/v1/nodes/:node/traits/:trait', async (req, reply) => {
    requireUrlVersion(req.apiMinor, 37);
    const node = await getNode(deps, req.params.node, req.apiMinor);
    if (!node.traits.includes(req.params.trait)) {
      throw fail('TraitNotFound', { node: node.uuid, trait: req.params.trait });
    }
    await deps.conductor.removeTrait(node.uuid, req.params.trait);
    return reply.code(204).send();
  });
}
