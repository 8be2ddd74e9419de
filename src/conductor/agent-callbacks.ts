/**
 * What the ramdisk agent asks of the conductor (Ironic's `lookup` and `heartbeat`, `ramdisk.py` and
 * `manager.py` `get_node_with_token` / `heartbeat`): the entry points, no more.
 *
 * Lookup finds the agent's node by its MAC addresses (the node's ports) among the nodes an agent may
 * serve now; a `node_uuid` only narrows that match, it never finds a node by itself (whoever can list
 * node UUIDs could otherwise win the first lookup and take the token). It hands out the agent token
 * once per ramdisk boot: a 43-character secret kept in `driver_internal_info.agent_secret_token`, never
 * shown by the API, and shown to later lookups as `******`. Every failure answers the same 404, so that
 * a caller learns nothing about nodes it does not know (as Ironic).
 *
 * Heartbeats must carry that token. The token and the callback URL are checked against the stored node
 * before any lock is taken, so that requests without the token cannot keep nodes locked; a heartbeat
 * for a node no agent serves now is taken and ignored, as Ironic's. Only then is the node locked: each
 * heartbeat records where the agent listens (`agent_url`), its version and time, and is handed to the
 * node's deploy interface, which says whether the flow waiting for the agent goes on (flows/agent-resume.ts).
 */
import type { JsonObject, Node } from '../domain/node.js';
import { HIDDEN_AGENT_TOKEN, type HeartbeatRequest } from '../protocol/agent/lookup.js';
import {
  FAST_TRACK_HEARTBEAT_ALLOWED_STATES, FAST_TRACK_LOOKUP_ALLOWED_STATES, HEARTBEAT_ALLOWED_STATES, LOOKUP_ALLOWED_STATES,
} from '../domain/states.js';
import { fastTrackEnabled } from '../drivers/agent/fast-track.js';
import { agentTokenMatches, newAgentToken } from '../drivers/agent/token.js';
import { isoTime } from '../shared/clock.js';
import { fail } from '../shared/errors.js';
import type { AgentLookup } from './client.js';
import type { ConductorContext } from './context.js';
import { resumeOnHeartbeat } from './flows/agent-resume.js';
import { Task, withTask } from './task.js';

/** Whether fast track is on for `node`; a driver_info `fast_track` that is no boolean counts as off here (the flows report it). */
function fastTrackOn(ctx: ConductorContext, node: Node): boolean {
  try {
    return fastTrackEnabled(node, ctx.config);
  } catch {
    // validate and the flows name the bad value.
    return false;
  }
}

/** Whether an agent may look `node` up now (Ironic `lookup_allowed`). */
function agentServed(ctx: ConductorContext, node: Node): boolean {
  return (fastTrackOn(ctx, node) ? FAST_TRACK_LOOKUP_ALLOWED_STATES : LOOKUP_ALLOWED_STATES).includes(node.provision_state);
}

/** Whether a heartbeat for `node` is taken now (Ironic `heartbeat_allowed`). */
function heartbeatTaken(ctx: ConductorContext, node: Node): boolean {
  return (fastTrackOn(ctx, node) ? FAST_TRACK_HEARTBEAT_ALLOWED_STATES : HEARTBEAT_ALLOWED_STATES).includes(node.provision_state);
}

/** How long lookups and heartbeats wait for a node lock held by a short operation before answering 409. */
const LOCK_RETRY_MS = 2000;

/** A heartbeat as the agent sends it (`POST /v1/heartbeat/{node}`). */
export type AgentHeartbeat = HeartbeatRequest;

/** The one node an agent with `macs` serves now (and, when given, the node `nodeUuid` names); read without a lock. */
async function agentNodeFor(ctx: ConductorContext, macs: readonly string[], nodeUuid: string | undefined): Promise<Node> {
  const ids = new Set<number>();
  for (const mac of macs) for (const p of await ctx.store.ports.list({ address: mac.toLowerCase() }, { limit: 10 })) ids.add(p.node_id);
  const candidates = await Promise.all([...ids].map((id) => ctx.store.nodes.getById(id)));
  const wanted = nodeUuid?.toLowerCase();
  const serving = candidates.filter((n) => agentServed(ctx, n) && (wanted === undefined || n.uuid === wanted));
  if (serving.length !== 1) throw fail('agentLookupNoNode', { macs: macs.join(',') });
  return serving[0] as Node;
}

/**
 * Finds the node for an agent by its MAC addresses, in a state an agent serves (see the module doc).
 * NodeNotFound when none or several match — the agent retries — and NodeLocked while the node is busy
 * at the first lookup of a boot (the agent backs off). A node whose token is already handed out is
 * answered without taking its lock.
 */
export async function lookupAgentNode(ctx: ConductorContext, macs: readonly string[], nodeUuid?: string): Promise<AgentLookup> {
  const seen = await agentNodeFor(ctx, macs, nodeUuid);
  const answer = (node: Node, token: string): AgentLookup => ({ node, token, heartbeatTimeoutS: ctx.config.agent_heartbeat_timeout_s });
  if (typeof seen.driver_internal_info.agent_secret_token === 'string') return answer(seen, HIDDEN_AGENT_TOKEN);
  // A flow that just moved the node into its wait state may still hold the lock for a moment.
  return withTask(ctx, seen.uuid, { retryMs: LOCK_RETRY_MS }, async (task) => {
    const node = task.node;
    if (!agentServed(ctx, node)) throw fail('agentLookupNoNode', { macs: macs.join(',') });
    if (typeof node.driver_internal_info.agent_secret_token === 'string') return answer(node, HIDDEN_AGENT_TOKEN);
    const token = newAgentToken();
    task.set({ driver_internal_info: { ...node.driver_internal_info, agent_secret_token: token } });
    await task.save();
    await task.record('agent', 'agent looked the node up; agent token handed out', 'INFO', null);
    return answer(task.node, token);
  });
}

/** InvalidParameterValue unless `hb` carries `node`'s token and the URL its agent announced first. */
function checkAgentOf(node: Node, hb: AgentHeartbeat): void {
  const dii = node.driver_internal_info;
  if (!agentTokenMatches(dii.agent_secret_token, hb.agent_token ?? '')) throw fail('agentTokenInvalid', { node: node.uuid });
  if (typeof dii.agent_url === 'string' && dii.agent_url !== hb.callback_url) throw fail('agentCallbackUrlChanged');
}

/**
 * Takes a heartbeat the API checked (`protocol/agent/lookup.ts` `HeartbeatBody`): the token must match
 * the one handed out (InvalidParameterValue otherwise — a heartbeat from an agent that never looked up,
 * or from someone else), the callback URL must not change while the agent runs; both are checked
 * before the node is locked. Records the agent's URL, version and time, then hands the heartbeat to the
 * node's deploy interface, which may continue the flow waiting for the agent (flows/agent-resume.ts);
 * NodeLocked while the node is busy (the agent retries), as in Ironic.
 */
export async function agentHeartbeat(ctx: ConductorContext, ident: string, hb: AgentHeartbeat): Promise<void> {
  const seen = await ctx.store.nodes.get(ident);
  checkAgentOf(seen, hb);
  if (!heartbeatTaken(ctx, seen)) {
    ctx.logger.warn({ node: seen.uuid, state: seen.provision_state }, `heartbeat of node ${seen.uuid} in provision state "${seen.provision_state}" not acted on: no agent serves it there`);
    return;
  }
  const task = await Task.acquire(ctx, seen.uuid, { retryMs: LOCK_RETRY_MS });
  let handedOver = false;
  try {
    // The flow that held the lock may have forgotten the agent meanwhile.
    checkAgentOf(task.node, hb);
    const dii = task.node.driver_internal_info;
    const recorded: JsonObject = { ...dii, agent_url: hb.callback_url, agent_last_heartbeat: isoTime(ctx.clock.now()) };
    if (hb.agent_version) recorded.agent_version = hb.agent_version;
    if (hb.agent_verify_ca) recorded.agent_verify_ca = hb.agent_verify_ca;
    task.set({ driver_internal_info: recorded });
    await task.save();
    if (dii.agent_url === undefined) {
      await task.record('agent', `agent${hb.agent_version ? ` ${hb.agent_version}` : ''} listening at ${hb.callback_url}`, 'INFO', null);
    }
    handedOver = resumeOnHeartbeat(task);
  } finally {
    if (!handedOver) await task.release();
  }
}
