/**
 * Routes of the legacy ironic-inspector API v1 (`ironic_inspector/main.py`, api-ref
 * `introspection-api-v1-*.inc`): version discovery, introspection start/status/list/abort, the stored
 * data, and the ramdisk callback `POST /v1/continue`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { JsonObject, Node } from '../../domain/node.js';
import { fail, IngotError } from '../../shared/errors.js';
import { agentRateLimit } from '../agent-rate-limit.js';
import type { ApiDeps } from '../context.js';
import { getNode } from '../resolve.js';
import { MAX_MINOR } from '../microversion.js';
import { boolParam, one, parseLimit, type Query } from '../query.js';
import { introspectionStatus, wasIntrospected } from './status.js';
import { INSPECTOR_MAX_MINOR } from './version.js';

/** The base URL of this listener as the client reached it. */
function base(req: FastifyRequest): string {
  return `${req.protocol}://${req.host}`;
}

/** The node by UUID or name; a missing node is the inspector's 404. */
async function node(deps: ApiDeps, ident: string): Promise<Node> {
  try {
    return await getNode(deps, ident, MAX_MINOR);
  } catch (err) {
    if (err instanceof IngotError && (err.code === 'NodeNotFound' || err.code === 'InvalidParameterValue')) {
      throw fail('inspectorNodeNotFound', { node: ident });
    }
    throw err;
  }
}

/** A node that was introspected at least once (404 otherwise, as the inspector knew no record of it). */
async function introspectedNode(deps: ApiDeps, ident: string): Promise<Node> {
  const n = await node(deps, ident);
  if (!wasIntrospected(n)) throw fail('introspectionNotFound', { node: n.uuid });
  return n;
}

/** Every introspected node, newest inspection first (UUID breaks ties). */
async function introspectedNodes(deps: ApiDeps): Promise<Node[]> {
  const out: Node[] = [];
  const batch = deps.config.max_limit;
  let marker: string | undefined;
  for (;;) {
    const page = await deps.store.nodes.list({}, { limit: batch, marker, sortKey: 'id', sortDir: 'asc' });
    for (const n of page) if (wasIntrospected(n)) out.push(n);
    if (page.length < batch) break;
    marker = page[page.length - 1]?.uuid;
  }
  return out.sort(
    (a, b) => (b.inspection_started_at ?? '').localeCompare(a.inspection_started_at ?? '') || a.uuid.localeCompare(b.uuid),
  );
}

export function introspectionRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get('/', async (req) => ({
    versions: [{ id: `1.${INSPECTOR_MAX_MINOR}`, status: 'CURRENT', links: [{ href: `${base(req)}/v1`, rel: 'self' }] }],
  }));

  app.get('/v1', async (req) => ({
    resources: ['introspection', 'continue', 'rules'].map((name) => ({ name, links: [{ href: `${base(req)}/v1/${name}`, rel: 'self' }] })),
  }));

  app.get('/v1/introspection', async (req) => {
    const query = req.query as Query;
    const limit = parseLimit(query, deps.config.max_limit);
    let all = await introspectedNodes(deps);
    const marker = one(query, 'marker');
    if (marker !== undefined && marker !== '') {
      const at = all.findIndex((n) => n.uuid === marker.toLowerCase());
      if (at < 0) throw fail('inspectorNodeNotFound', { node: marker });
      all = all.slice(at + 1);
    }
    return { introspection: all.slice(0, limit).map((n) => introspectionStatus(n, base(req))) };
  });

  app.post<{ Params: { node_id: string } }>('/v1/introspection/:node_id', async (req, reply) => {
    // NOTE: manage_boot=false let the inspector leave booting to someone else; the conductor always
    // boots the ramdisk of in-band inspection itself, so the value is checked and otherwise unused.
    boolParam(req.query as Query, 'manage_boot');
    const n = await node(deps, req.params.node_id);
    await deps.conductor.doProvisionAction(n.uuid, 'inspect', {});
    reply.code(202);
    return reply.send();
  });

  app.get<{ Params: { node_id: string } }>('/v1/introspection/:node_id', async (req) =>
    introspectionStatus(await introspectedNode(deps, req.params.node_id), base(req)),
  );

  app.post<{ Params: { node_id: string } }>('/v1/introspection/:node_id/abort', async (req, reply) => {
    const n = await introspectedNode(deps, req.params.node_id);
    if (n.provision_state !== 'inspect wait' && n.provision_state !== 'inspecting') {
      throw fail('introspectionNotRunning', { node: n.uuid, state: n.provision_state });
    }
    await deps.conductor.doProvisionAction(n.uuid, 'abort', {});
    reply.code(202);
    return reply.send();
  });

  app.get<{ Params: { node_id: string } }>('/v1/introspection/:node_id/data', async (req) => {
    const n = await node(deps, req.params.node_id);
    const record = await deps.store.inventories.get(n.id);
    if (!record) throw fail('introspectionDataNotFound', { node: n.uuid });
    // The inspector's processed data: plugin data at the top level, the agent's inventory under `inventory`.
    const data: JsonObject = { ...record.plugin_data, inventory: record.inventory };
    return data;
  });

  const unprocessed = async (req: FastifyRequest<{ Params: { node_id: string } }>) => {
    const n = await node(deps, req.params.node_id);
    throw fail('unprocessedDataNotKept', { node: n.uuid });
  };
  app.get('/v1/introspection/:node_id/data/unprocessed', unprocessed);
  app.post('/v1/introspection/:node_id/data/unprocessed', unprocessed);

  // The ramdisk's callback needs no credentials: rate limited per source address, bounded in size.
  app.post('/v1/continue', { bodyLimit: deps.config.max_inspection_body_bytes, onRequest: agentRateLimit(app, deps.config) }, async (req) => {
    const uuid = await deps.conductor.continueInspection(req.body);
    return { uuid };
  });
}
