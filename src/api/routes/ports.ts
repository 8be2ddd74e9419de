/**
 * `/v1/ports` (CRUD, filters node/node_uuid/address/portgroup, `detail`, `fields`, paging) and
 * `/v1/nodes/{node}/ports`. MAC addresses are validated and lower-cased; a duplicate is a 409. A port
 * is shown and updated by UUID or name (1.88), deleted by UUID; it is created on a node given by UUID
 * (`node_uuid`) or, from 1.94, by UUID or name (`node_ident`).
 */
import { ownGet } from '../../shared/own-keys.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PortChanges, PortCreate } from '../../conductor/client.js';
import type { PortFilter } from '../../db/store.js';
import { fail, IngotError } from '../../shared/errors.js';
import type { ApiDeps } from '../context.js';
import { baseUrl, buildUrl } from '../links.js';
import { getNode, getNodeParam, getPort, isValidLogicalName, requireUuid } from '../resolve.js';
import { normalizeMac } from '../../shared/mac.js';
import { requireVersion } from '../microversion.js';
import { applyPatch, changedFields, parsePatch } from '../patch.js';
import { PortPostBody } from '../../protocol/api/bodies.js';
import { CHECKED_PORT_FIELDS, checkSmartNicLink, rejectNewerPortInput, rejectNewerPortPatch, requireOneNode, validateLocalLink } from '../port-input.js';
import { nextLink, one, parseLimit, parseSortDir, returnFields, type Query } from '../query.js';
import { toBool } from '../../shared/strict-bool.js';
import { ownerIndex, PORT_DEFAULT_FIELDS, PORT_FIELDS, portForVersion, portView } from '../serialize/port.js';
import { pick, planFields } from '../serialize/resource.js';
import { checkBody, checkChanged } from '../validate.js';

type PortParams = { Params: { port: string } };
type NodeParams = { Params: { node: string } };

/**
 * Ironic's `PATCH_ALLOWED_FIELDS` (of 1.96). `node_ident` is there too, but a port has no such
 * attribute to replace, and adding one at the root is refused, so it can never be patched.
 */
const PATCH_ALLOWED = ['address', 'extra', 'is_smartnic', 'local_link_connection', 'name', 'node_ident', 'node_uuid', 'physical_network', 'portgroup_uuid', 'pxe_enabled'];

/**
 * A port's name, checked as Ironic checks the names of port groups (`is_valid_logical_name`: RFC 3986
 * unreserved characters, at most 255): a port is fetched by name, so a name must be one a URL can carry.
 */
function portName(name: string | null | undefined, minor: number): string | null {
  if (name === null || name === undefined) return null;
  if (!isValidLogicalName(name, minor)) throw fail('portNameInvalid', { name });
  return name;
}

/** The port group a `portgroup_uuid` names; it must belong to `nodeId`. */
async function portgroupIdFor(deps: ApiDeps, value: unknown, nodeId: number): Promise<number | null> {
  if (value === null || value === undefined) return null;
  const uuid = requireUuid('portgroup_uuid', value);
  let pg;
  try {
    pg = await deps.store.portgroups.get(uuid);
  } catch (err) {
    if (err instanceof IngotError && err.code === 'PortgroupNotFound') throw fail('PortgroupNotFound', { portgroup: uuid }, { status: 400 });
    throw err;
  }
  if (pg.node_id !== nodeId) throw fail('portgroupOfOtherNode');
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
    throw fail('portNodeFilterTwice');
  }
  if (nodeIdent !== undefined) filter.node_id = (await getNodeParam(deps, nodeIdent, minor)).id;
  const address = one(q, 'address');
  if (address !== undefined) filter.address = normalizeMac(address);
  const portgroup = one(q, 'portgroup');
  if (portgroup !== undefined) {
    requireVersion(minor, 24, 'filtering by portgroup');
    filter.portgroup_id = (await deps.store.portgroups.get(portgroup)).id;
  }
  const sortKey = one(q, 'sort_key');
  // Ironic refuses to sort by some of the fields the version does not have (406).
  const sortMin = sortKey === undefined ? undefined : (ownGet(CHECKED_PORT_FIELDS, sortKey) as number | undefined);
  if (sortKey !== undefined && sortMin !== undefined && minor < sortMin) throw fail('sortKeyNeedsVersion', { field: sortKey, min: sortMin });
  const limit = parseLimit(q, deps.config.max_limit);
  const ports = await deps.store.ports.list(filter, { limit, marker: one(q, 'marker'), sortKey, sortDir: parseSortDir(q) });
  const idx = await ownerIndex(deps, ports, minor >= 24);
  const base = baseUrl(req, deps.config.public_url);
  const out: { ports: unknown[]; next?: string } = {
    ports: ports.map((p) => pick(portForVersion(p, idx, base, minor), plan)),
  };
  const next = nextLink(base, opts.resource, ports.length, limit, ports[ports.length - 1]?.uuid, q);
  if (next) out.next = next;
  return out;
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
    return pick(portForVersion(port, idx, baseUrl(req, deps.config.public_url), minor), plan);
  });

  // In Ironic's order: the body's shape and values, the node (a missing one is a 400), then the
  // fields newer than the version (406), the port group, the Smart NIC's link.
  app.post('/v1/ports', async (req, reply) => {
    const minor = req.apiMinor;
    const body = checkBody('port', req.body, PortPostBody);
    const nodeRef = requireOneNode(body);
    const address = normalizeMac(body.address);
    const link = validateLocalLink(body.local_link_connection);
    const pxeEnabled = body.pxe_enabled === undefined || body.pxe_enabled === null ? true : toBool('pxe_enabled', body.pxe_enabled);
    const isSmartnic = body.is_smartnic === undefined || body.is_smartnic === null ? false : toBool('is_smartnic', body.is_smartnic);
    const uuid = body.uuid === undefined || body.uuid === null ? undefined : requireUuid('uuid', body.uuid);
    if (body.portgroup_uuid !== undefined && body.portgroup_uuid !== null) requireUuid('portgroup_uuid', body.portgroup_uuid);
    if (nodeRef.field === 'node_uuid') requireUuid('node_uuid', nodeRef.value);
    else if (nodeRef.value !== '') requireVersion(minor, 94, 'node_ident');
    const node = await getNodeParam(deps, nodeRef.value, minor);
    rejectNewerPortInput(body, minor);
    const values: PortCreate = {
      address,
      node_id: node.id,
      portgroup_id: await portgroupIdFor(deps, body.portgroup_uuid, node.id),
      name: portName(body.name, minor),
      extra: body.extra ?? {},
      local_link_connection: link ?? {},
      pxe_enabled: pxeEnabled,
      physical_network: body.physical_network ?? null,
      is_smartnic: isSmartnic,
    };
    if (isSmartnic) checkSmartNicLink(link);
    if (uuid !== undefined) values.uuid = uuid;
    const port = await deps.conductor.createPort(values);
    const base = baseUrl(req, deps.config.public_url);
    const idx = await ownerIndex(deps, [port], minor >= 24);
    reply.code(201).header('location', buildUrl(base, 'ports', port.uuid));
    return portForVersion(port, idx, base, minor);
  });

  app.patch<PortParams>('/v1/ports/:port', async (req) => {
    const minor = req.apiMinor;
    const ops = parsePatch(req.body, { allowed: PATCH_ALLOWED, mandatory: ['/address', '/node_uuid'] });
    rejectNewerPortPatch(ops, minor);
    const port = await getPort(deps, req.params.port);
    const base = baseUrl(req, deps.config.public_url);
    const idx = await ownerIndex(deps, [port], true);
    const before = portView(port, idx, base);
    const after = applyPatch(structuredClone(before), ops);
    const raw = changedFields(before, after, PATCH_ALLOWED);
    const changes: PortChanges = {};
    let nodeId = port.node_id;
    if ('node_uuid' in raw) {
      nodeId = (await getNodeParam(deps, requireUuid('node_uuid', raw.node_uuid), minor)).id;
      changes.node_id = nodeId;
    }
    const changed = checkChanged(raw, PortPostBody);
    if (changed.address !== undefined) changes.address = normalizeMac(changed.address);
    if (changed.portgroup_uuid !== undefined) changes.portgroup_id = await portgroupIdFor(deps, changed.portgroup_uuid, nodeId);
    if (changed.pxe_enabled !== undefined) changes.pxe_enabled = changed.pxe_enabled === null ? true : toBool('pxe_enabled', changed.pxe_enabled);
    if (changed.is_smartnic !== undefined) changes.is_smartnic = changed.is_smartnic === null ? false : toBool('is_smartnic', changed.is_smartnic);
    if (changed.extra !== undefined) changes.extra = changed.extra ?? {};
    if (changed.local_link_connection !== undefined) changes.local_link_connection = validateLocalLink(changed.local_link_connection) ?? {};
    if (changed.physical_network !== undefined) changes.physical_network = changed.physical_network;
    if (changed.name !== undefined) changes.name = portName(changed.name, minor);
    const updated = await deps.conductor.updatePort(port.uuid, changes);
    const idx2 = await ownerIndex(deps, [updated], minor >= 24);
    return portForVersion(updated, idx2, base, minor);
  });

  // Ironic deletes a port by UUID only (`args.uuid`), not by name.
  app.delete<PortParams>('/v1/ports/:port', async (req, reply) => {
    const ident = req.params.port;
    const port = await deps.store.ports.get(requireUuid('port_uuid', ident));
    await deps.conductor.destroyPort(port.uuid);
    return reply.code(204).send();
  });
}
