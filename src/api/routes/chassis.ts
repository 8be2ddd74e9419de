/**
 * `/v1/chassis` CRUD and `/v1/chassis/{id}/nodes`. Chassis carry no hardware state, so (as in Ironic)
 * the API writes them to the store itself; nodes are still changed only through the conductor.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Chassis } from '../../domain/node.js';
import type { ChassisChanges, ChassisCreate } from '../../db/store.js';
import { ChassisCreateBody } from '../../protocol/api/bodies.js';
import type { ApiDeps } from '../context.js';
import { baseUrl, buildUrl, selfLinks } from '../links.js';
import { requireUuid } from '../resolve.js';
import { applyPatch, changedFields, parsePatch } from '../patch.js';
import { nextLink, one, parseLimit, parseSortDir, returnFields, type Query } from '../query.js';
import { pick, planFields, type FieldVersions } from '../serialize/resource.js';
import { checkBody, checkChanged } from '../validate.js';
import { listNodes } from './nodes.js';

type ChassisParams = { Params: { chassis: string } };

const FIELDS: FieldVersions = { uuid: 1, description: 1, extra: 1, created_at: 1, updated_at: 1 };
const DEFAULT_FIELDS = ['uuid', 'description'];
const PATCH_ALLOWED = ['description', 'extra'];

function chassisView(c: Chassis, base: string, withNodes: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {
    uuid: c.uuid,
    description: c.description,
    extra: c.extra,
    created_at: c.created_at,
    updated_at: c.updated_at,
    links: selfLinks(base, 'chassis', c.uuid),
  };
  if (withNodes) out.nodes = selfLinks(base, 'chassis', `${c.uuid}/nodes`);
  return out;
}

async function getChassis(deps: ApiDeps, ident: string): Promise<Chassis> {
  return deps.store.chassis.get(requireUuid('chassis_uuid', ident));
}

async function list(deps: ApiDeps, req: FastifyRequest, detail: boolean) {
  const minor = req.apiMinor;
  const q = req.query as Query;
  const plan = planFields(FIELDS, minor, detail ? undefined : returnFields(q, minor, DEFAULT_FIELDS), ['nodes']);
  const limit = parseLimit(q, deps.config.max_limit);
  const items = await deps.store.chassis.list({ limit, marker: one(q, 'marker'), sortKey: one(q, 'sort_key'), sortDir: parseSortDir(q) });
  const base = baseUrl(req, deps.config.public_url);
  const out: { chassis: unknown[]; next?: string } = { chassis: items.map((c) => pick(chassisView(c, base, plan.full), plan)) };
  const next = nextLink(base, detail ? 'chassis/detail' : 'chassis', items.length, limit, items[items.length - 1]?.uuid, q);
  if (next) out.next = next;
  return out;
}

/** Registers the chassis routes. */
export function chassisRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get('/v1/chassis', (req) => list(deps, req, false));
  app.get('/v1/chassis/detail', (req) => list(deps, req, true));

  app.get<ChassisParams>('/v1/chassis/:chassis', async (req) => {
    const q = req.query as Query;
    const plan = planFields(FIELDS, req.apiMinor, q.fields === undefined ? undefined : returnFields(q, req.apiMinor, []), ['nodes']);
    const c = await getChassis(deps, req.params.chassis);
    return pick(chassisView(c, baseUrl(req, deps.config.public_url), plan.full), plan);
  });

  app.get<ChassisParams>('/v1/chassis/:chassis/nodes', async (req) => {
    const c = await getChassis(deps, req.params.chassis);
    return listNodes(deps, req, { resource: `chassis/${c.uuid}/nodes`, detail: false, extraFilter: { chassis_id: c.id } });
  });

  app.post('/v1/chassis', async (req, reply) => {
    const body = checkBody('chassis', req.body, ChassisCreateBody);
    const values: ChassisCreate = { description: body.description ?? null, extra: body.extra ?? {} };
    if (body.uuid !== undefined && body.uuid !== null) values.uuid = requireUuid('uuid', body.uuid);
    const c = await deps.store.chassis.create(values);
    const base = baseUrl(req, deps.config.public_url);
    reply.code(201).header('location', buildUrl(base, 'chassis', c.uuid));
    return chassisView(c, base, true);
  });

  app.patch<ChassisParams>('/v1/chassis/:chassis', async (req) => {
    const ops = parsePatch(req.body, { allowed: PATCH_ALLOWED, mandatory: [] });
    const c = await getChassis(deps, req.params.chassis);
    const base = baseUrl(req, deps.config.public_url);
    const before = chassisView(c, base, false);
    const after = applyPatch(structuredClone(before), ops);
    const changed = checkChanged(changedFields(before, after, PATCH_ALLOWED), ChassisCreateBody);
    const changes: ChassisChanges = {};
    if (changed.description !== undefined) changes.description = changed.description;
    if (changed.extra !== undefined) changes.extra = changed.extra ?? {};
    const updated = await deps.store.chassis.update(c.uuid, changes);
    return chassisView(updated, base, true);
  });

  app.delete<ChassisParams>('/v1/chassis/:chassis', async (req, reply) => {
    const c = await getChassis(deps, req.params.chassis);
    await deps.store.chassis.delete(c.uuid);
    return reply.code(204).send();
  });
}
