/**
 * Ramdisk-facing endpoints, which need no credentials, as in Ironic (the agent has none):
 * - `POST /v1/continue_inspection` (1.84): the agent's inspection data; no microversion needed (agents
 *   send none or an old one); the data itself is checked strictly by the conductor, against
 *   `protocol/agent/inventory.ts` `InspectionPayloadBody`.
 * - `GET /v1/lookup` (1.22): the agent finds its node by MACs (`addresses`, required; `node_uuid` only
 *   narrows the match) and gets its configuration — with the agent token the first time of a ramdisk
 *   boot (`ramdisk.py` `LookupController`).
 * - `POST /v1/heartbeat/{node}` (1.22): the agent says it is alive and where its API listens; the body is
 *   `protocol/agent/lookup.ts` `HeartbeatBody`, the token is required (fields newer than the requested
 *   version are refused, as Ironic does).
 */
import type { FastifyInstance } from 'fastify';
import type { Node } from '../../domain/node.js';
import { ContinueInspectionQuery } from '../../protocol/agent/inventory.js';
import { AGENT_STATUSES, HeartbeatBody, LookupQuery, type HeartbeatRequest } from '../../protocol/agent/lookup.js';
import { fail } from '../../shared/errors.js';
import { agentRateLimit } from '../agent-rate-limit.js';
import type { ApiDeps } from '../context.js';
import { baseUrl, selfLinks } from '../links.js';
import { requireUuid } from '../resolve.js';
import { normalizeMac } from '../../shared/mac.js';
import { requireUrlVersion } from '../microversion.js';
import { queryParams } from '../query.js';
import { maskDict } from '../../shared/mask.js';
import { checkBody } from '../validate.js';

/** The version of the lookup and heartbeat endpoints. */
const RAMDISK_MINOR = 22;

/** Heartbeat fields and the version that introduced each. */
const HEARTBEAT_FIELDS: Readonly<Record<string, number>> = {
  callback_url: 22, agent_version: 36, agent_token: 62, agent_verify_ca: 68, agent_status: 72, agent_status_message: 72,
};

const isAgentStatus = (s: string) => (AGENT_STATUSES as readonly string[]).includes(s);

/**
 * Checks a heartbeat body as Ironic's `HeartbeatController.post` does: fields newer than the version,
 * the types, the callback URL (http or https), the token's presence, the agent status. Whether the
 * token and the URL are those of the node's agent is the conductor's to check.
 */
export function checkHeartbeat(body: unknown, minor: number): HeartbeatRequest & { agent_token: string } {
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    for (const [field, value] of Object.entries(body)) {
      const min = HEARTBEAT_FIELDS[field];
      if (min === undefined) throw fail('heartbeatFieldUnknown', { field });
      if (value !== null && value !== undefined && minor < min) throw fail('heartbeatFieldNewer', { field });
    }
  }
  const hb = checkBody('heartbeat', body, HeartbeatBody);
  let scheme: string;
  try {
    scheme = new URL(hb.callback_url).protocol;
  } catch {
    scheme = '';
  }
  if (scheme !== 'http:' && scheme !== 'https:') throw fail('callbackUrlInvalid');
  const token = hb.agent_token;
  if (token === undefined || token === null || token === '') throw fail('agentTokenRequired');
  if (hb.agent_status !== undefined && hb.agent_status !== null && !isAgentStatus(hb.agent_status)) {
    throw fail('agentStatusInvalid', { statuses: AGENT_STATUSES.join(',') });
  }
  return { ...hb, agent_token: token };
}

/** The node fields an agent gets at lookup (Ironic `_LOOKUP_RETURN_FIELDS`), secrets masked. */
function lookupNode(node: Node, base: string): Record<string, unknown> {
  const { agent_secret_token: _token, ...internal } = node.driver_internal_info;
  return {
    uuid: node.uuid,
    properties: node.properties,
    instance_info: maskDict(node.instance_info),
    driver_internal_info: internal,
    links: selfLinks(base, 'nodes', node.uuid),
  };
}

/** The agent endpoints; each is rate limited per source address (agent-rate-limit.ts) and bounded in body size. */
export function ramdiskRoutes(app: FastifyInstance, deps: ApiDeps): void {
  const onRequest = agentRateLimit(app, deps.config);
  app.post('/v1/continue_inspection', { bodyLimit: deps.config.max_inspection_body_bytes, onRequest }, async (req, reply) => {
    const uuid = await deps.conductor.continueInspection(req.body, queryParams(req.query, ContinueInspectionQuery).node_uuid);
    reply.code(202);
    return { uuid };
  });

  app.get('/v1/lookup', { onRequest }, async (req) => {
    requireUrlVersion(req.apiMinor, RAMDISK_MINOR);
    const { addresses, node_uuid: nodeUuid } = queryParams(req.query, LookupQuery);
    if (nodeUuid !== undefined) requireUuid('node_uuid', nodeUuid);
    // As Ironic: addresses that are not MACs (an agent may report any interface) are skipped.
    const macs = (addresses ?? '').split(',').map((a) => a.trim()).filter((a) => a !== '').flatMap((a) => {
      try {
        return [normalizeMac(a)];
      } catch {
        return [];
      }
    });
    if (macs.length === 0 && !nodeUuid) throw fail('lookupArgumentsMissing');
    // Anyone may list node UUIDs: only the machine's own MACs find its node (agent-callbacks.ts).
    if (macs.length === 0) throw fail('lookupMacRequired');
    const found = await deps.conductor.lookupAgent(macs, nodeUuid);
    return {
      node: lookupNode(found.node, baseUrl(req, deps.config.public_url)),
      config: {
        heartbeat_timeout: found.heartbeatTimeoutS,
        agent_token: found.token,
        agent_token_required: true,
        metrics: { backend: 'noop', prepend_host: false, prepend_uuid: false, prepend_host_reverse: true, global_prefix: null },
        metrics_statsd: { statsd_host: 'localhost', statsd_port: 8125 },
        agent_md5_checksum_enable: false,
        permitted_image_formats: ['raw', 'qcow2', 'iso'],
        disable_deep_image_inspection: false,
      },
    };
  });

  app.post<{ Params: { node: string } }>('/v1/heartbeat/:node', { onRequest }, async (req, reply) => {
    requireUrlVersion(req.apiMinor, RAMDISK_MINOR);
    await deps.conductor.agentHeartbeat(req.params.node, checkHeartbeat(req.body, req.apiMinor));
    reply.code(202);
    return reply.send();
  });
}
