/**
 * `/v1/nodes/{node}/traits` (1.37): list, replace all, add one, remove one or all. Trait names follow
 * Ironic's rule: a standard (os-traits style) name or `CUSTOM_[A-Z0-9_]+`, at most 255 characters.
 */
import type { FastifyInstance } from 'fastify';
import { TraitsBody } from '../../protocol/api/bodies.js';
import { fail } from '../../shared/errors.js';
import type { ApiDeps } from '../context.js';
import { getNode } from '../lookup.js';
import { requireUrlVersion } from '../microversion.js';
import { checkBody } from '../validate.js';

type IdParams = { Params: { node: string } };
type TraitParams = { Params: { node: string; trait: string } };

const TRAIT_RE = /^(CUSTOM_[A-Z0-9_]+|[A-Z][A-Z0-9_]*)$/;

/** Throws InvalidParameterValue unless `trait` is a valid trait name. */
export function validateTrait(trait: unknown): string {
  if (typeof trait !== 'string' || trait.length > 255 || !TRAIT_RE.test(trait)) {
    throw fail(
      'InvalidParameterValue',
      `Invalid trait ${JSON.stringify(trait)}. A valid trait must be no longer than 255 characters. Standard traits are ` +
        'defined in the os_traits library. A custom trait must start with the prefix CUSTOM_ and use the following characters: A-Z, 0-9 and _',
    );
  }
  return trait;
}

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
    const traits = body.traits.map(validateTrait);
    const node = await getNode(deps, req.params.node, req.apiMinor);
    await deps.conductor.setTraits(node.uuid, [...new Set(traits)]);
    return reply.code(204).send();
  });

  app.put<TraitParams>('/v1/nodes/:node/traits/:trait', async (req, reply) => {
    requireUrlVersion(req.apiMinor, 37);
    const trait = validateTrait(req.params.trait);
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
      throw fail('TraitNotFound', `Node ${node.uuid} doesn't have a trait ${req.params.trait}`);
    }
    await deps.conductor.removeTrait(node.uuid, req.params.trait);
    return reply.code(204).send();
  });
}
