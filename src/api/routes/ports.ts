/**
 * `/v1/ports` (CRUD, filters node/node_uuid/address/portgroup, `detail`, `fields`, paging) and
 * `/v1/nodes/{node}/ports`. MAC addresses are validated and lower-cased; a duplicate is a 409.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { JsonObject } from '../../domain/node.js';
import type { PortChanges, PortCreate, PortFilter } from '../../db/store.js';
import { PortCreateBody } from '../../protocol/api/bodies.js';
import { fail, IngotError } from '../../shared/errors.js';
import { isUuid, normalizeUuid } from '../../shared/ids.js';
import type { ApiDeps } from '../context.js';
import { baseUrl, buildUrl } from '../links.js';
import { getNode, getNodeParam, requireUuid } from '../lookup.js';
import { normalizeMac } from '../mac.js';
import { requireVersion } from '../microversion.js';
import { applyPatch, changedFields, parsePatch } from '../patch.js';
import { nextLink, one, parseLimit, parseSortDir, returnFields, toBool, type Query } from '../query.js';
import { gate, ownerIndex, PORT_DEFAULT_FIELDS, PORT_FIELDS, portView } from '../serialize/port.js';
import { pick, planFields, rejectNewer } from '../serialize/resource.js';
import { checkBody, checkField } from '../validate.js';

type PortParams = { Params: { port: string } };
type NodeParams = { Params: { node: string } };

const PATCH_ALLOWED = ['address', 'extra', 'is_smartnic', 'local_link_connection', 'node_uuid', 'physical_network', 'portgroup_uuid', 'pxe_enabled'];

/** The port group a `portgroup_uuid` names; it must belong to `nodeId`. */
async function portgroupIdFor(deps: ApiDeps, value: unknown, nodeId: number): Promise<number | null> {
  if (value === null || value === undefined) return null;
  const uuid = requireUuid('portgroup_uuid', value);
  let pg;
  try {
    pg = await deps.store.portgroups.get(uuid);
  } catch (err) {
    if (err instanceof IngotError && err.code === 'PortgroupNotFound') throw fail('InvalidParameterValue', `Portgroup ${uuid} could not be found.`);
    throw err;
  }
  if (pg.node_id !== nodeId) throw fail('InvalidParameterValue', 'Port can not be added to a portgroup belonging to a different node.');
  return pg.id;
}

/** Answers a port collection (also for a node's and a port group's ports). */
export async function listPorts(
  deps: ApiDeps,
  req: FastifyRequest,
  opts: { resource: string; detail?: boolean; filter?: PortFilter },
): Promise<{ ports: unknown[]; next?: string }> {
  const minor = req.apiMinor;
  const q = req.query as Query;
  const plan = planFields(PORT_FIELDS, minor, opts.detail ? undefined : returnFields(q, minor, PORT_DEFAULT_FIELDS));
  const filter: PortFilter = { ...opts.filter };
  const nodeIdent = one(q, 'node') ?? one(q, 'node_uuid');
  if (one(q, 'node') !== undefined && one(q, 'node_uuid') !== undefined) {
    throw fail('InvalidParameterValue', 'Only one of node and node_uuid may be given.');
  }
  if (nodeIdent !== undefined) filter.node_id = (await getNodeParam(deps, 'node', nodeIdent, minor)).id;
  const address = one(q, 'address');
  if (address !== undefined) filter.address = normalizeMac(address);
  const portgroup = one(q, 'portgroup');
  if (portgroup !== undefined) {
    requireVersion(minor, 24, 'filtering by portgroup');
    filter.portgroup_id = (await deps.store.portgroups.get(portgroup)).id;
  }
  const limit = parseLimit(q, deps.config.max_limit);
  const ports = await deps.store.ports.list(filter, { limit, marker: one(q, 'marker'), sortKey: one(q, 'sort_key'), sortDir: parseSortDir(q) });
  const idx = await ownerIndex(deps, ports, minor >= 24);
  const base = baseUrl(req, deps.config.public_url);
  const out: { ports: unknown[]; next?: string } = {
    ports: ports.map((p) => pick(gate(portView(p, idx, base), PORT_FIELDS, minor), plan)),
  };
  const next = nextLink(base, opts.resource, ports.length, limit, ports[ports.length - 1]?.uuid, q);
  if (next) out.next = next;
  return out;
}

async function getPort(deps: ApiDeps, ident: string) {
  if (!isUuid(ident)) throw fail('InvalidParameterValue', `Expected a UUID but received ${ident}.`);
  return deps.store.ports.get(normalizeUuid(ident));
}

/** Registers the port routes. */
export function portRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get('/v1/ports', (req) => listPorts(deps, req, { resource: 'ports' }));
  app.get('/v1/ports/detail', (req) => listPorts(deps, req, { resource: 'ports/detail', detail: true }));
  app.get<NodeParams>('/v1/nodes/:node/ports', async (req) => {
    const node = await getNode(deps, req.params.node, req.apiMinor);
    return listPorts(deps, req, { resource: `nodes/${node.uuid}/ports`, filter: { node_id: node.id } });
  });

  app.get<PortParams>('/v1/ports/:port', async (req) => {
    const minor = req.apiMinor;
    const q = req.query as Query;
    const plan = planFields(PORT_FIELDS, minor, q.fields === undefined ? undefined : returnFields(q, minor, []));
    const port = await getPort(deps, req.params.port);
    const idx = await ownerIndex(deps, [port], minor >= 24);
    return pick(gate(portView(port, idx, baseUrl(req, deps.config.public_url)), PORT_FIELDS, minor), plan);
  });

  app.post('/v1/ports', async (req, reply) => {
    const minor = req.apiMinor;
    const body = checkBody('port', req.body, PortCreateBody);
    rejectNewer({ ...PORT_FIELDS, name: 88 }, minor, body);
    const address = normalizeMac(body.address);
    const node = await getNodeParam(deps, 'node_uuid', requireUuid('node_uuid', body.node_uuid), minor);
    const values: PortCreate = {
      address,
      node_id: node.id,
      portgroup_id: await portgroupIdFor(deps, body.portgroup_uuid, node.id),
      extra: (body.extra as JsonObject | null) ?? {},
      local_link_connection: (body.local_link_connection as JsonObject | null) ?? {},
      pxe_enabled: body.pxe_enabled === undefined || body.pxe_enabled === null ? true : toBool('pxe_enabled', body.pxe_enabled),
      physical_network: (body.physical_network as string | null | undefined) ?? null,
      is_smartnic: body.is_smartnic === undefined || body.is_smartnic === null ? false : toBool('is_smartnic', body.is_smartnic),
    };
    if (body.uuid !== undefined && body.uuid !== null) values.uuid = requireUuid('uuid', body.uuid);
    const port = await deps.conductor.createPort(values);
    const base = baseUrl(req, deps.config.public_url);
    const idx = await ownerIndex(deps, [port], minor >= 24);
    reply.code(201).header('location', buildUrl(base, 'ports', port.uuid));
    return gate(portView(port, idx, base), PORT_FIELDS, minor);
  });

  app.patch<PortParams>('/v1/ports/:port', async (req) => {
    const minor = req.apiMinor;
    const ops = parsePatch(req.body, { allowed: PATCH_ALLOWED, mandatory: ['/address', '/node_uuid'] });
    for (const op of ops) {
      const field = op.path.split('/')[1] as string;
      const min = PORT_FIELDS[field] ?? 1;
      if (minor < min) throw fail('NotAcceptable', `Field "${field}" is not acceptable at API version 1.${minor}; it needs 1.${min}.`);
    }
    const port = await getPort(deps, req.params.port);
    const base = baseUrl(req, deps.config.public_url);
    const idx = await ownerIndex(deps, [port], true);
    const before = portView(port, idx, base);
    const after = applyPatch(structuredClone(before), ops);
    const changed = changedFields(before, after, PATCH_ALLOWED);
    const props = PortCreateBody.properties as Record<string, Parameters<typeof checkField>[2]>;
    const changes: PortChanges = {};
    let nodeId = port.node_id;
    if ('node_uuid' in changed) {
      nodeId = (await getNodeParam(deps, 'node_uuid', requireUuid('node_uuid', changed.node_uuid), minor)).id;
      changes.node_id = nodeId;
    }
    for (const [field, value] of Object.entries(changed)) {
      if (value !== null && props[field]) checkField(field, value, props[field]);
      switch (field) {
        case 'address': changes.address = normalizeMac(value); break;
        case 'node_uuid': break;
        case 'portgroup_uuid': changes.portgroup_id = await portgroupIdFor(deps, value, nodeId); break;
        case 'pxe_enabled': changes.pxe_enabled = value === null ? true : toBool(field, value); break;
        case 'is_smartnic': changes.is_smartnic = value === null ? false : toBool(field, value); break;
        case 'extra': changes.extra = (value as JsonObject | null) ?? {}; break;
        case 'local_link_connection': changes.local_link_connection = (value as JsonObject | null) ?? {}; break;
        case 'physical_network': changes.physical_network = value as string | null; break;
      }
    }
    const updated = await deps.conductor.updatePort(port.uuid, changes);
    const idx2 = await ownerIndex(deps, [updated], minor >= 24);
    return gate(portView(updated, idx2, base), PORT_FIELDS, minor);
  });

  app.delete<PortParams>('/v1/ports/:port', async (req, reply) => {
    const port = await getPort(deps, req.params.port);
    await deps.conductor.destroyPort(port.uuid);
    return reply.code(204).send();
  });
}
