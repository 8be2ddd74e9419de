/**
 * `/v1/portgroups` (1.23; CRUD by UUID or name, filters node/address, `detail`, `fields`, paging),
 * `/v1/portgroups/{pg}/ports` and `/v1/nodes/{node}/portgroups` (1.24).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PortgroupChanges, PortgroupCreate } from '../../conductor/client.js';
import type { PortgroupFilter } from '../../db/store.js';
import { PortgroupCreateBody } from '../../protocol/api/bodies.js';
import { fail } from '../../shared/errors.js';
import type { ApiDeps } from '../context.js';
import { baseUrl, buildUrl, selfLinks } from '../links.js';
import { getNode, getNodeParam, isValidLogicalName, requireUuid } from '../resolve.js';
import { normalizeMac } from '../../shared/mac.js';
import { requireUrlVersion } from '../microversion.js';
import { applyPatch, changedFields, parsePatch } from '../patch.js';
import { nextLink, one, parseLimit, parseSortDir, returnFields, type Query } from '../query.js';
import { toBool } from '../../shared/strict-bool.js';
import { gate, ownerIndex, PORTGROUP_DEFAULT_FIELDS, PORTGROUP_FIELDS, portgroupView } from '../serialize/port.js';
import { pick, planFields, rejectNewer } from '../serialize/resource.js';
import { checkBody, checkChanged } from '../validate.js';
import { listPorts } from './ports.js';

type PgParams = { Params: { portgroup: string } };
type NodeParams = { Params: { node: string } };

const PATCH_ALLOWED = ['address', 'extra', 'mode', 'name', 'node_uuid', 'properties', 'standalone_ports_supported'];

function checkName(name: unknown, minor: number): string | null {
  if (name === null || name === undefined) return null;
  if (typeof name !== 'string' || !isValidLogicalName(name, minor)) {
    throw fail('portgroupNameInvalid', { name: String(name) });
  }
  return name;
}

function view(deps: ApiDeps, req: FastifyRequest, full: Record<string, unknown>): Record<string, unknown> {
  const base = baseUrl(req, deps.config.public_url);
  full.ports = selfLinks(base, 'portgroups', `${full.uuid as string}/ports`);
  return gate(full, PORTGROUP_FIELDS, req.apiMinor);
}

async function listPortgroups(
  deps: ApiDeps,
  req: FastifyRequest,
  opts: { resource: string; detail?: boolean; filter?: PortgroupFilter },
): Promise<{ portgroups: unknown[]; next?: string }> {
  const minor = req.apiMinor;
  requireUrlVersion(minor, 23);
  const q = req.query as Query;
  const plan = planFields(PORTGROUP_FIELDS, minor, opts.detail ? undefined : returnFields(q, minor, PORTGROUP_DEFAULT_FIELDS), ['ports']);
  const filter: PortgroupFilter = { ...opts.filter };
  const node = one(q, 'node');
  if (node !== undefined) filter.node_id = (await getNodeParam(deps, node, minor)).id;
  const address = one(q, 'address');
  if (address !== undefined) filter.address = normalizeMac(address);
  const limit = parseLimit(q, deps.config.max_limit);
  const groups = await deps.store.portgroups.list(filter, { limit, marker: one(q, 'marker'), sortKey: one(q, 'sort_key'), sortDir: parseSortDir(q) });
  const idx = await ownerIndex(deps, groups, false);
  const base = baseUrl(req, deps.config.public_url);
  const out: { portgroups: unknown[]; next?: string } = {
    portgroups: groups.map((g) => pick(view(deps, req, portgroupView(g, idx, base)), plan)),
  };
  const next = nextLink(base, opts.resource, groups.length, limit, groups[groups.length - 1]?.uuid, q);
  if (next) out.next = next;
  return out;
}

/** Registers the port group routes. */
export function portgroupRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get('/v1/portgroups', (req) => listPortgroups(deps, req, { resource: 'portgroups' }));
  app.get('/v1/portgroups/detail', (req) => listPortgroups(deps, req, { resource: 'portgroups/detail', detail: true }));
  app.get<NodeParams>('/v1/nodes/:node/portgroups', async (req) => {
    requireUrlVersion(req.apiMinor, 24);
    const node = await getNode(deps, req.params.node, req.apiMinor);
    return listPortgroups(deps, req, { resource: `nodes/${node.uuid}/portgroups`, filter: { node_id: node.id } });
  });
  app.get<PgParams>('/v1/portgroups/:portgroup/ports', async (req) => {
    requireUrlVersion(req.apiMinor, 24);
    const pg = await deps.store.portgroups.get(req.params.portgroup);
    return listPorts(deps, req, { resource: `portgroups/${pg.uuid}/ports`, filter: { portgroup_id: pg.id } });
  });

  app.get<PgParams>('/v1/portgroups/:portgroup', async (req) => {
    const minor = req.apiMinor;
    requireUrlVersion(minor, 23);
    const q = req.query as Query;
    const plan = planFields(PORTGROUP_FIELDS, minor, q.fields === undefined ? undefined : returnFields(q, minor, []), ['ports']);
    const pg = await deps.store.portgroups.get(req.params.portgroup);
    const idx = await ownerIndex(deps, [pg], false);
    return pick(view(deps, req, portgroupView(pg, idx, baseUrl(req, deps.config.public_url))), plan);
  });

  app.post('/v1/portgroups', async (req, reply) => {
    const minor = req.apiMinor;
    requireUrlVersion(minor, 23);
    const body = checkBody('portgroup', req.body, PortgroupCreateBody);
    rejectNewer(PORTGROUP_FIELDS, minor, body);
    const node = await getNodeParam(deps, requireUuid('node_uuid', body.node_uuid), minor);
    const values: PortgroupCreate = {
      node_id: node.id,
      name: checkName(body.name, minor),
      address: body.address === undefined || body.address === null ? null : normalizeMac(body.address),
      extra: body.extra ?? {},
      mode: body.mode ?? 'active-backup',
      properties: body.properties ?? {},
      standalone_ports_supported:
        body.standalone_ports_supported === undefined || body.standalone_ports_supported === null
          ? true
          : toBool('standalone_ports_supported', body.standalone_ports_supported),
    };
    if (body.uuid !== undefined && body.uuid !== null) values.uuid = requireUuid('uuid', body.uuid);
    const pg = await deps.conductor.createPortgroup(values);
    const base = baseUrl(req, deps.config.public_url);
    const idx = await ownerIndex(deps, [pg], false);
    reply.code(201).header('location', buildUrl(base, 'portgroups', pg.uuid));
    return view(deps, req, portgroupView(pg, idx, base));
  });

  app.patch<PgParams>('/v1/portgroups/:portgroup', async (req) => {
    const minor = req.apiMinor;
    requireUrlVersion(minor, 23);
    const ops = parsePatch(req.body, { allowed: PATCH_ALLOWED, mandatory: ['/node_uuid'] });
    for (const op of ops) {
      const field = op.path.split('/')[1] as string;
      const min = PORTGROUP_FIELDS[field] ?? 1;
      if (minor < min) throw fail('fieldNotAcceptable', { field, minor, min });
    }
    const pg = await deps.store.portgroups.get(req.params.portgroup);
    const base = baseUrl(req, deps.config.public_url);
    const idx = await ownerIndex(deps, [pg], false);
    const before = portgroupView(pg, idx, base);
    const after = applyPatch(structuredClone(before), ops);
    const changed = checkChanged(changedFields(before, after, PATCH_ALLOWED), PortgroupCreateBody);
    const changes: PortgroupChanges = {};
    if (changed.address !== undefined) changes.address = changed.address === null ? null : normalizeMac(changed.address);
    if (changed.name !== undefined) changes.name = checkName(changed.name, minor);
    if (changed.node_uuid !== undefined) {
      changes.node_id = (await getNodeParam(deps, requireUuid('node_uuid', changed.node_uuid), minor)).id;
    }
    if (changed.mode !== undefined) changes.mode = changed.mode;
    if (changed.extra !== undefined) changes.extra = changed.extra ?? {};
    if (changed.properties !== undefined) changes.properties = changed.properties ?? {};
    const standalone = changed.standalone_ports_supported;
    if (standalone !== undefined) changes.standalone_ports_supported = standalone === null ? true : toBool('standalone_ports_supported', standalone);
    const updated = await deps.conductor.updatePortgroup(pg.uuid, changes);
    return view(deps, req, portgroupView(updated, await ownerIndex(deps, [updated], false), base));
  });

  app.delete<PgParams>('/v1/portgroups/:portgroup', async (req, reply) => {
    requireUrlVersion(req.apiMinor, 23);
    const pg = await deps.store.portgroups.get(req.params.portgroup);
    await deps.conductor.destroyPortgroup(pg.uuid);
    return reply.code(204).send();
  });
}
