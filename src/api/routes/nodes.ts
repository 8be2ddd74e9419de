/**
 * `/v1/nodes`: list (with `detail`, `fields`, filters, paging), create, show by UUID or name, JSON
 * Patch update and delete. Reads come from the store; every change goes through the conductor.
 * Detailed lists of all fields answer nodes unchanged since an earlier list from the render cache
 * (serialize/node-render-cache.ts): only the keys of the page are read, then only the nodes whose
 * row version moved are read and rendered.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Node } from '../../domain/node.js';
import { isProvisionState, UPDATE_ALLOWED_STATES } from '../../domain/states.js';
import type { NodeFilter, NodeKey, Page } from '../../db/store.js';
import { fail, IngotError } from '../../shared/errors.js';
import type { ApiDeps } from '../context.js';
import { baseUrl, buildUrl } from '../links.js';
import { getNode, hadJsonSuffix, isValidNodeName, nodeContext, requireUuid } from '../resolve.js';
import { requireVersion } from '../microversion.js';
import { NODE_PATCH_ALLOWED, nodeChangesFromPatch, nodeCreateFromBody } from '../node-input.js';
import { applyPatch, changedFields, parsePatch, patchValues } from '../patch.js';
import { boolParam, nextLink, one, parseLimit, parseSortDir, returnFields, type Query } from '../query.js';
import {
  NODE_DEFAULT_FIELDS,
  NODE_FIELD_VERSIONS,
  nodeFieldMinor,
  NODE_PAGE_CHUNK,
  nodeFieldAllowed,
  nodeJsonRenderer,
  nodePageJson,
  nodeTextPageJson,
  patchableView,
  planNode,
  serializeNode,
  serializeNodes,
  type NodeContext,
  type NodePlan,
} from '../serialize/node.js';
import { NodeRenderCache } from '../serialize/node-render-cache.js';

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
    if (!isProvisionState(ps)) throw fail('provisionStateFilterInvalid', { state: ps });
    filter.provision_state = ps;
  }
  const driver = gate('driver', 16);
  if (driver !== undefined) filter.driver = driver;
  const rc = gate('resource_class', 21);
  if (rc !== undefined) filter.resource_class = rc;
  const fault = gate('fault', 42);
  if (fault !== undefined) {
    if (!VALID_FAULTS.has(fault)) {
      throw fail('faultFilterInvalid', { fault, faults: [...VALID_FAULTS].join(', ') });
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
    filter.instance_uuid = requireUuid('instance_uuid', instance);
  }
  const chassis = one(q, 'chassis_uuid');
  if (chassis !== undefined) {
    try {
      filter.chassis_id = (await deps.store.chassis.get(requireUuid('chassis_uuid', chassis))).id;
    } catch (err) {
      if (!(err instanceof IngotError && err.code === 'ChassisNotFound')) throw err;
      empty = true;
    }
  }
  return conductor === undefined ? { filter, empty } : { filter, conductor, empty };
}

/** A node collection request, read and checked: what to list and how to render it. */
interface ListRequest {
  plan: NodePlan;
  /** Every field with links (`detail`): the plan the render cache serves. */
  full: boolean;
  filter: NodeFilter;
  /** Only nodes managed by this conductor (filtered after reading, by the hash ring). */
  conductor?: string;
  /** The filter matches nothing (an unknown chassis). */
  empty: boolean;
  page: Page;
  base: string;
  minor: number;
  resource: string;
  query: Query;
}

/** Reads and checks a node collection request; every request error is thrown from here or the store's paging. */
async function listRequest(
  deps: ApiDeps,
  request: FastifyRequest,
  opts: { resource: string; detail: boolean; extraFilter?: NodeFilter },
): Promise<ListRequest> {
  const minor = request.apiMinor;
  const q = request.query as Query;
  const requested = opts.detail ? undefined : returnFields(q, minor, NODE_DEFAULT_FIELDS);
  const plan = planNode(minor, requested, q.fields !== undefined);
  const { filter, conductor, empty } = await nodeFilter(deps, q, minor);
  Object.assign(filter, opts.extraFilter);
  const limit = parseLimit(q, deps.config.max_limit);
  const sortKey = one(q, 'sort_key') ?? 'id';
  if (!nodeFieldAllowed(sortKey, minor)) throw fail('sortKeyNeedsVersion', { field: sortKey, min: nodeFieldMinor(sortKey) });
  const page = { limit, marker: one(q, 'marker'), sortKey, sortDir: parseSortDir(q) };
  const base = baseUrl(request, deps.config.public_url);
  const out: ListRequest = { plan, full: requested === undefined, filter, empty, page, base, minor, resource: opts.resource, query: q };
  if (conductor !== undefined) out.conductor = conductor;
  return out;
}

/** One page of a node collection: the nodes, how to render them and the `next` link. */
interface NodePage {
  nodes: Node[];
  plan: NodePlan;
  ctx: NodeContext;
  next?: string;
}

/** Reads one page of a node collection whole. */
async function nodePage(deps: ApiDeps, r: ListRequest): Promise<NodePage> {
  let nodes: Node[] = r.empty ? [] : await deps.store.nodes.list(r.filter, r.page);
  const fetched = nodes.length;
  const lastUuid = nodes[nodes.length - 1]?.uuid;
  const ctx = await nodeContext(deps, r.base, r.minor, nodes);
  if (r.conductor !== undefined) nodes = nodes.filter((n) => ctx.conductorFor(n) === r.conductor);
  const next = nextLink(r.base, r.resource, fetched, r.page.limit, lastUuid, r.query);
  return next === undefined ? { nodes, plan: r.plan, ctx } : { nodes, plan: r.plan, ctx, next };
}

/**
 * Reads one page of a node collection through the render cache: the page's keys, then the nodes
 * without a current cached text. Returns the page's node texts, rendered (and offered to the cache)
 * lazily as they are pulled, and the `next` link.
 */
/** Full node records read at once while a cached page streams. */
const READ_SLICE = 100;

async function cachedNodePage(deps: ApiDeps, cache: NodeRenderCache, r: ListRequest): Promise<{ texts: AsyncIterable<string>; next?: string }> {
  let keys: NodeKey[] = r.empty ? [] : await deps.store.nodes.listKeys(r.filter, r.page);
  const fetched = keys.length;
  const lastUuid = keys[keys.length - 1]?.uuid;
  let ctx = await nodeContext(deps, r.base, r.minor, keys);
  if (r.conductor !== undefined) keys = keys.filter((k) => ctx.conductorFor(k) === r.conductor);
  const next = nextLink(r.base, r.resource, fetched, r.page.limit, lastUuid, r.query);
  const scope = cache.scope(r.minor, r.plan, r.base);

  // Per node: its kept text, or whether its text will be kept (seen unchanged before) once rendered.
  const cached = new Array<string | undefined>(keys.length);
  const keepNext = new Uint8Array(keys.length);
  const at = new Map<number, number>();
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as NodeKey;
    const stamp = { id: k.id, version: k.version, conductor: ctx.conductorFor(k), chassisUuid: ctx.chassisUuid(k) };
    const text = cache.get(scope, k.uuid, stamp);
    if (text !== undefined) cached[i] = text;
    else {
      if (cache.seen(scope, stamp)) keepNext[i] = 1;
      at.set(k.id, i);
    }
  }
  const render = nodeJsonRenderer(r.plan, r.minor);
  const stampOf = (n: Node) => ({ id: n.id, version: n.version, conductor: ctx.conductorFor(n), chassisUuid: ctx.chassisUuid(n) });
  // Nodes without a kept text are read a slice at a time as the stream drains, so a page never holds
  // more than a slice of full node records.
  async function* texts(): AsyncGenerator<string, void, undefined> {
    for (let start = 0; start < keys.length; start += READ_SLICE) {
      const end = Math.min(keys.length, start + READ_SLICE);
      const ids: number[] = [];
      for (let i = start; i < end; i++) if (cached[i] === undefined) ids.push((keys[i] as NodeKey).id);
      const read = new Map<number, Node>();
      if (ids.length > 0) {
        let moved = false;
        for (const n of await deps.store.nodes.getMany(ids)) {
          read.set(n.id, n);
          const k = keys[at.get(n.id) as number] as NodeKey;
          // Written between the two reads: not kept this time; onto another chassis or ring: resolve it too.
          if (n.version !== k.version) keepNext[at.get(n.id) as number] = 0;
          if (n.chassis_id !== k.chassis_id || n.driver !== k.driver || n.conductor_group !== k.conductor_group) moved = true;
        }
        if (moved) ctx = await nodeContext(deps, r.base, r.minor, [...keys, ...read.values()]);
      }
      // Nodes whose text is not kept are rendered together, NODE_PAGE_CHUNK at a time, as nodePageJson does.
      let group: Node[] = [];
      for (let i = start; i < end; i++) {
        const hit = cached[i];
        // A node deleted between the two reads is left out, as a list read a moment later would.
        const n = hit === undefined ? read.get((keys[i] as NodeKey).id) : undefined;
        if (hit === undefined && n === undefined) continue;
        if (hit === undefined && keepNext[i] === 0) {
          group.push(n as Node);
          cache.mark(scope, (n as Node).uuid, stampOf(n as Node));
          if (group.length < NODE_PAGE_CHUNK) continue;
        }
        if (group.length > 0) {
          yield render.many(group, ctx);
          group = [];
        }
        if (hit !== undefined) yield hit;
        else if (keepNext[i] === 1) {
          const text = render.one(n as Node, ctx);
          cache.offer(scope, (n as Node).uuid, stampOf(n as Node), text);
          yield text;
        }
      }
      if (group.length > 0) yield render.many(group, ctx);
    }
  }
  return next === undefined ? { texts: texts() } : { texts: texts(), next };
}

/** Answers a node collection request as one object (used by `/v1/chassis/{id}/nodes`). */
export async function listNodes(
  deps: ApiDeps,
  request: FastifyRequest,
  opts: { resource: string; detail: boolean; extraFilter?: NodeFilter },
): Promise<{ nodes: unknown[]; next?: string }> {
  const p = await nodePage(deps, await listRequest(deps, request, opts));
  const out: { nodes: unknown[]; next?: string } = { nodes: serializeNodes(p.nodes, p.plan, p.ctx) };
  if (p.next) out.next = p.next;
  return out;
}

/**
 * Answers a node collection request as a JSON stream, rendered a piece at a time while the socket
 * drains (a detailed page of 1000 nodes is 2.6 MB). The page is read and checked before the stream
 * starts, so request errors still answer with the error envelope. Detailed pages of every field go
 * through `cache` when it is enabled.
 */
export async function streamNodes(
  deps: ApiDeps,
  cache: NodeRenderCache,
  request: FastifyRequest,
  reply: FastifyReply,
  opts: { resource: string; detail: boolean },
): Promise<Readable> {
  const r = await listRequest(deps, request, opts);
  if (r.full && cache.enabled) {
    const p = await cachedNodePage(deps, cache, r);
    reply.type('application/json');
    return Readable.from(nodeTextPageJson(p.texts, p.next), { objectMode: false });
  }
  const p = await nodePage(deps, r);
  reply.type('application/json');
  return Readable.from(nodePageJson(p.nodes, p.plan, p.ctx, p.next), { objectMode: false });
}

/** Registers the `/v1/nodes` routes. */
export function nodeRoutes(app: FastifyInstance, deps: ApiDeps): void {
  const cache = new NodeRenderCache(deps.config.node_render_cache_chars);
  app.get('/v1/nodes', (req, reply) => streamNodes(deps, cache, req, reply, { resource: 'nodes', detail: false }));
  app.get('/v1/nodes/detail', (req, reply) => streamNodes(deps, cache, req, reply, { resource: 'nodes/detail', detail: true }));

  app.get<IdParams>('/v1/nodes/:node', async (req) => {
    const minor = req.apiMinor;
    const q = req.query as Query;
    const fields = q.fields === undefined ? undefined : returnFields(q, minor, []);
    const plan = planNode(minor, fields);
    const node = await getNode(deps, req.params.node, minor, hadJsonSuffix(req.raw));
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
        throw fail('fieldNotAcceptable', { field, minor, min: nodeFieldMinor(field) });
      }
    }
    for (const name of patchValues(ops, '/name')) {
      if (name !== null && (typeof name !== 'string' || !isValidNodeName(name, minor))) {
        throw fail('nodeRenameInvalid', { node: req.params.node, name: String(name) });
      }
    }
    const node = await getNode(deps, req.params.node, minor, hadJsonSuffix(req.raw));
    const onlyRemovesInstance = ops.length === 1 && ops[0]?.op === 'remove' && ops[0].path === '/instance_uuid';
    if (!(node.maintenance && onlyRemovesInstance) && node.target_provision_state && !UPDATE_ALLOWED_STATES.includes(node.provision_state)) {
      throw fail('nodeInTransition', { node: req.params.node });
    }
    const base = baseUrl(req, deps.config.public_url);
    const ctx = await nodeContext(deps, base, minor, [node]);
    const before = patchableView(node, ctx);
    const after = applyPatch(patchableView(node, ctx), ops);
    const changes = await nodeChangesFromPatch(deps, req.params.node, changedFields(before, after, NODE_PATCH_ALLOWED), minor);
    const updated = await deps.conductor.updateNode(node.uuid, changes);
    const ctx2 = await nodeContext(deps, base, minor, [updated]);
    return serializeNode(updated, planNode(minor, undefined), ctx2);
  });

  app.delete<IdParams>('/v1/nodes/:node', async (req, reply) => {
    const node = await getNode(deps, req.params.node, req.apiMinor, hadJsonSuffix(req.raw));
    await deps.conductor.destroyNode(node.uuid);
    reply.code(204);
    return null;
  });
}
