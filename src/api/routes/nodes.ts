/**
 * `/v1/nodes`: list (with `detail`, `fields`, filters, paging), create, show by UUID or name, JSON
 * Patch update and delete. Reads come from the store; every change goes through the conductor.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Node } from '../../domain/node.js';
import { isProvisionState, UPDATE_ALLOWED_STATES } from '../../domain/states.js';
import type { NodeFilter } from '../../db/store.js';
import { fail, IngotError } from '../../shared/errors.js';
import { isUuid, normalizeUuid } from '../../shared/ids.js';
import type { ApiDeps } from '../context.js';
import { baseUrl, buildUrl } from '../links.js';
import { getNode, isValidNodeName, nodeContext } from '../lookup.js';
import { requireVersion } from '../microversion.js';
import { NODE_PATCH_ALLOWED, nodeChangesFromPatch, nodeCreateFromBody } from '../node-input.js';
import { applyPatch, changedFields, parsePatch, patchValues } from '../patch.js';
import { boolParam, nextLink, one, parseLimit, parseSortDir, returnFields, type Query } from '../query.js';
import {
  NODE_DEFAULT_FIELDS,
  NODE_FIELD_VERSIONS,
  nodeFieldAllowed,
  nodePageJson,
  patchableView,
  planNode,
  serializeNode,
  serializeNodes,
  type NodeContext,
  type NodePlan,
} from '../serialize/node.js';

const VALID_FAULTS = new Set(['power failure', 'clean failure', 'rescue abort failure', 'service failure']);

type IdParams = { Params: { node: string } };

/** Builds the store filter from the query, with each filter's version gate. */
async function nodeFilter(deps: ApiDeps, q: Query, minor: number): Promise<{ filter: NodeFilter; conductor?: string; empty: boolean }> {
  const filter: NodeFilter = {};
  let empty = false;
  const gate = (name: string, min: number): string | undefined => {
    const v = one(q, name);
    if (v !== undefined) requireVersion(minor, min, `filtering by ${name}`);
    return v;
  };
  const ps = gate('provision_state', 9);
  if (ps !== undefined) {
    if (!isProvisionState(ps)) throw fail('InvalidParameterValue', `Provision state "${ps}" is not valid`);
    filter.provision_state = ps;
  }
  const driver = gate('driver', 16);
  if (driver !== undefined) filter.driver = driver;
  const rc = gate('resource_class', 21);
  if (rc !== undefined) filter.resource_class = rc;
  const fault = gate('fault', 42);
  if (fault !== undefined) {
    if (!VALID_FAULTS.has(fault)) {
      throw fail('InvalidParameterValue', `Unrecognized fault "${fault}" is specified, allowed faults are ${[...VALID_FAULTS].join(', ')}`);
    }
    filter.fault = fault;
  }
  const group = gate('conductor_group', 46);
  if (group !== undefined) filter.conductor_group = group.toLowerCase();
  const conductor = gate('conductor', 49);
  const owner = gate('owner', 50);
  if (owner !== undefined) filter.owner = owner;
  const desc = gate('description_contains', 51);
  if (desc !== undefined) filter.description_contains = desc;
  if (gate('retired', 61) !== undefined) filter.retired = boolParam(q, 'retired') as boolean;
  const lessee = gate('lessee', 65);
  if (lessee !== undefined) filter.lessee = lessee;
  const shard = gate('shard', 82);
  if (shard !== undefined) filter.shard = shard.split(',').map((s) => s.trim()).filter(Boolean);
  if (gate('sharded', 82) !== undefined) filter.sharded = boolParam(q, 'sharded') as boolean;
  const parent = gate('parent_node', 83);
  if (parent !== undefined) filter.parent_node = parent;
  if (gate('include_children', 83) !== undefined) boolParam(q, 'include_children');
  const maintenance = boolParam(q, 'maintenance');
  if (maintenance !== undefined) filter.maintenance = maintenance;
  const associated = boolParam(q, 'associated');
  if (associated !== undefined) filter.associated = associated;
  const instance = one(q, 'instance_uuid');
  if (instance !== undefined) {
    if (!isUuid(instance)) throw fail('InvalidParameterValue', `Expected a UUID for instance_uuid but received ${instance}.`);
    filter.instance_uuid = normalizeUuid(instance);
  }
  const chassis = one(q, 'chassis_uuid');
  if (chassis !== undefined) {
    if (!isUuid(chassis)) throw fail('InvalidParameterValue', `Expected a UUID for chassis_uuid but received ${chassis}.`);
    try {
      filter.chassis_id = (await deps.store.chassis.get(normalizeUuid(chassis))).id;
    } catch (err) {
      if (!(err instanceof IngotError && err.code === 'ChassisNotFound')) throw err;
      empty = true;
    }
  }
  return conductor === undefined ? { filter, empty } : { filter, conductor, empty };
}

/** One page of a node collection: the nodes, how to render them and the `next` link. */
interface NodePage {
  nodes: Node[];
  plan: NodePlan;
  ctx: NodeContext;
  next?: string;
}

/** Reads and checks one page of a node collection; every request error is thrown from here. */
async function nodePage(
  deps: ApiDeps,
  request: FastifyRequest,
  opts: { resource: string; detail: boolean; extraFilter?: NodeFilter },
): Promise<NodePage> {
  const minor = request.apiMinor;
  const q = request.query as Query;
  const requested = opts.detail ? undefined : returnFields(q, minor, NODE_DEFAULT_FIELDS);
  const plan = planNode(minor, requested, q.fields !== undefined);
  const { filter, conductor, empty } = await nodeFilter(deps, q, minor);
  Object.assign(filter, opts.extraFilter);
  const limit = parseLimit(q, deps.config.max_limit);
  const sortKey = one(q, 'sort_key') ?? 'id';
  if (!nodeFieldAllowed(sortKey, minor)) throw fail('NotAcceptable', `Sorting by "${sortKey}" needs API version 1.${NODE_FIELD_VERSIONS[sortKey]}.`);
  const page = { limit, marker: one(q, 'marker'), sortKey, sortDir: parseSortDir(q) };
  let nodes: Node[] = empty ? [] : await deps.store.nodes.list(filter, page);
  const fetched = nodes.length;
  const lastUuid = nodes[nodes.length - 1]?.uuid;
  if (conductor !== undefined) nodes = nodes.filter((n) => deps.conductor.conductorFor(n) === conductor);
  const base = baseUrl(request, deps.config.public_url);
  const ctx = await nodeContext(deps, base, minor, nodes);
  const next = nextLink(base, opts.resource, fetched, limit, lastUuid, q);
  return next === undefined ? { nodes, plan, ctx } : { nodes, plan, ctx, next };
}

/** Answers a node collection request as one object (used by `/v1/chassis/{id}/nodes`). */
export async function listNodes(
  deps: ApiDeps,
  request: FastifyRequest,
  opts: { resource: string; detail: boolean; extraFilter?: NodeFilter },
): Promise<{ nodes: unknown[]; next?: string }> {
  const p = await nodePage(deps, request, opts);
  const out: { nodes: unknown[]; next?: string } = { nodes: serializeNodes(p.nodes, p.plan, p.ctx) };
  if (p.next) out.next = p.next;
  return out;
}

/**
 * Answers a node collection request as a JSON stream, rendered a piece at a time while the socket
 * drains (a detailed page of 1000 nodes is 2.3 MB). The page is read and checked before the stream
 * starts, so request errors still answer with the error envelope.
 */
export async function streamNodes(
  deps: ApiDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  opts: { resource: string; detail: boolean },
): Promise<Readable> {
  const p = await nodePage(deps, request, opts);
  reply.type('application/json');
  return Readable.from(nodePageJson(p.nodes, p.plan, p.ctx, p.next), { objectMode: false });
}

/** Registers the `/v1/nodes` routes. */
export function nodeRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get('/v1/nodes', (req, reply) => streamNodes(deps, req, reply, { resource: 'nodes', detail: false }));
  app.get('/v1/nodes/detail', (req, reply) => streamNodes(deps, req, reply, { resource: 'nodes/detail', detail: true }));

  app.get<IdParams>('/v1/nodes/:node', async (req) => {
    const minor = req.apiMinor;
    const q = req.query as Query;
    const fields = q.fields === undefined ? undefined : returnFields(q, minor, []);
    const plan = planNode(minor, fields);
    const node = await getNode(deps, req.params.node, minor);
    const ctx = await nodeContext(deps, baseUrl(req, deps.config.public_url), minor, [node]);
    return serializeNode(node, plan, ctx);
  });

  app.post('/v1/nodes', async (req, reply) => {
    const minor = req.apiMinor;
    const values = await nodeCreateFromBody(deps, req.body, minor);
    const node = await deps.conductor.createNode(values);
    const base = baseUrl(req, deps.config.public_url);
    const ctx = await nodeContext(deps, base, minor, [node]);
    reply.code(201).header('location', buildUrl(base, 'nodes', node.uuid));
    return serializeNode(node, planNode(minor, undefined), ctx);
  });

  app.patch<IdParams>('/v1/nodes/:node', async (req) => {
    const minor = req.apiMinor;
    const q = req.query as Query;
    if (one(q, 'reset_interfaces') !== undefined) {
      requireVersion(minor, 45, 'reset_interfaces');
      boolParam(q, 'reset_interfaces');
    }
    const ops = parsePatch(req.body, { allowed: NODE_PATCH_ALLOWED, mandatory: ['/driver'] });
    for (const field of Object.keys(NODE_FIELD_VERSIONS)) {
      if (!nodeFieldAllowed(field, minor) && patchValues(ops, `/${field}`).length > 0) {
        throw fail('NotAcceptable', `Field "${field}" is not acceptable at API version 1.${minor}; it needs 1.${NODE_FIELD_VERSIONS[field]}.`);
      }
    }
    for (const name of patchValues(ops, '/name')) {
      if (name !== null && (typeof name !== 'string' || !isValidNodeName(name, minor))) {
        throw fail('InvalidParameterValue', `Node ${req.params.node}: Cannot change name to invalid name '${String(name)}'`);
      }
    }
    const node = await getNode(deps, req.params.node, minor);
    const onlyRemovesInstance = ops.length === 1 && ops[0]?.op === 'remove' && ops[0].path === '/instance_uuid';
    if (!(node.maintenance && onlyRemovesInstance) && node.target_provision_state && !UPDATE_ALLOWED_STATES.includes(node.provision_state)) {
      throw fail('InvalidState', `Node ${req.params.node} can not be updated while a state transition is in progress.`);
    }
    const base = baseUrl(req, deps.config.public_url);
    const ctx = await nodeContext(deps, base, minor, [node]);
    const before = patchableView(node, ctx);
    const after = applyPatch(patchableView(node, ctx), ops);
    const changes = await nodeChangesFromPatch(deps, changedFields(before, after, NODE_PATCH_ALLOWED), minor);
    const updated = await deps.conductor.updateNode(node.uuid, changes);
    const ctx2 = await nodeContext(deps, base, minor, [updated]);
    return serializeNode(updated, planNode(minor, undefined), ctx2);
  });

  app.delete<IdParams>('/v1/nodes/:node', async (req, reply) => {
    const node = await getNode(deps, req.params.node, req.apiMinor);
    await deps.conductor.destroyNode(node.uuid);
    reply.code(204);
    return null;
  });
}
