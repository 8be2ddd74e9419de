/**
 * `/v1/conductors[/{hostname}]` (1.49): the conductors with their group, hardware types and whether
 * they are alive (online and heard from within `api.conductor_alive_timeout_s`).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Conductor } from '../../domain/node.js';
import type { ApiDeps } from '../context.js';
import { baseUrl, selfLinks } from '../links.js';
import { requireUrlVersion } from '../microversion.js';
import { nextLink, one, parseLimit, parseSortDir, returnFields, type Query } from '../query.js';
import { pick, planFields, type FieldVersions } from '../serialize/resource.js';

type HostParams = { Params: { hostname: string } };

const FIELDS: FieldVersions = { hostname: 1, conductor_group: 1, alive: 1, drivers: 1, created_at: 1, updated_at: 1 };
const DEFAULT_FIELDS = ['hostname', 'conductor_group', 'alive'];

function conductorView(c: Conductor, deps: ApiDeps, base: string): Record<string, unknown> {
  const last = Date.parse(c.updated_at ?? c.created_at);
  const alive = c.online && Date.now() - last <= deps.config.conductor_alive_timeout_s * 1000;
  return {
    hostname: c.hostname,
    conductor_group: c.conductor_group,
    alive,
    drivers: c.drivers,
    created_at: c.created_at,
    updated_at: c.updated_at,
    links: selfLinks(base, 'conductors', c.hostname),
  };
}

async function list(deps: ApiDeps, req: FastifyRequest) {
  const minor = req.apiMinor;
  requireUrlVersion(minor, 49);
  const q = req.query as Query;
  const plan = planFields(FIELDS, minor, returnFields(q, minor, DEFAULT_FIELDS));
  const limit = parseLimit(q, deps.config.max_limit);
  const items = await deps.store.conductors.list({ limit, marker: one(q, 'marker'), sortKey: one(q, 'sort_key'), sortDir: parseSortDir(q) });
  const base = baseUrl(req, deps.config.public_url);
  const out: { conductors: unknown[]; next?: string } = { conductors: items.map((c) => pick(conductorView(c, deps, base), plan)) };
  const next = nextLink(base, 'conductors', items.length, limit, items[items.length - 1]?.hostname, q);
  if (next) out.next = next;
  return out;
}

/** Registers the conductor routes. */
export function conductorRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get('/v1/conductors', (req) => list(deps, req));
  app.get<HostParams>('/v1/conductors/:hostname', async (req) => {
    requireUrlVersion(req.apiMinor, 49);
    const q = req.query as Query;
    const plan = planFields(FIELDS, req.apiMinor, q.fields === undefined ? undefined : returnFields(q, req.apiMinor, []));
    const c = await deps.store.conductors.get(req.params.hostname);
    return pick(conductorView(c, deps, baseUrl(req, deps.config.public_url)), plan);
  });
}
