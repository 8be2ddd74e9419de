/**
 * `/v1/nodes/{node}/history[/{event}]` (1.78): the node's events, each with Ingot's `duration`, the
 * seconds the node spent in the phase that the event ended (null when unknown).
 */
import type { FastifyInstance } from 'fastify';
import type { HistoryEvent } from '../../domain/node.js';
import type { ApiDeps } from '../context.js';
import { baseUrl, selfLinks } from '../links.js';
import { getNode } from '../resolve.js';
import { requireUrlVersion } from '../microversion.js';
import { boolParam, nextLink, one, parseLimit, parseSortDir, type Query } from '../query.js';

type IdParams = { Params: { node: string } };
type EventParams = { Params: { node: string; event: string } };

/** One history event as the API shows it. */
export function serializeEvent(e: HistoryEvent, nodeUuid: string, base: string, detail: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {
    uuid: e.uuid,
    created_at: e.created_at,
    severity: e.severity,
    event: e.event,
    duration: e.duration_ms === null ? null : e.duration_ms / 1000,
    links: selfLinks(base, 'nodes', `${nodeUuid}/history/${e.uuid}`),
  };
  if (detail) {
    out.event_type = e.event_type;
    out.conductor = e.conductor;
    out.user = e.user;
  }
  return out;
}

/** Registers the history routes. */
export function nodeHistoryRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get<IdParams>('/v1/nodes/:node/history', async (req) => {
    requireUrlVersion(req.apiMinor, 78);
    const q = req.query as Query;
    const detail = boolParam(q, 'detail') ?? false;
    const node = await getNode(deps, req.params.node, req.apiMinor);
    const limit = parseLimit(q, deps.config.max_limit);
    const events = await deps.store.history.list(node.id, { limit, marker: one(q, 'marker'), sortDir: parseSortDir(q) });
    const base = baseUrl(req, deps.config.public_url);
    const out: { history: unknown[]; next?: string } = { history: events.map((e) => serializeEvent(e, node.uuid, base, detail)) };
    const next = nextLink(base, `nodes/${node.uuid}/history`, events.length, limit, events[events.length - 1]?.uuid, q);
    if (next) out.next = next;
    return out;
  });

  app.get<EventParams>('/v1/nodes/:node/history/:event', async (req) => {
    requireUrlVersion(req.apiMinor, 78);
    const node = await getNode(deps, req.params.node, req.apiMinor);
    const event = await deps.store.history.get(node.id, req.params.event);
    return serializeEvent(event, node.uuid, baseUrl(req, deps.config.public_url), true);
  });
}
