/**
 * What the ramdisk agent asks of the conductor (Ironic's `lookup` and `heartbeat`, `ramdisk.py` and
 * `manager.py` `get_node_with_token` / `heartbeat`): the entry points, no more. Lookup finds the agent's
 * node by its MACs or UUID among the nodes an agent may serve, and hands out the agent token once: a
 * 43-character secret kept in `driver_internal_info.agent_secret_token`, never shown by the API, and
 * shown to later lookups as `******`. Heartbeats must carry that token; each records where the agent
 * listens (`agent_url`), its version and time, and is then handed to the node's deploy interface, which
 * says whether the flow waiting for the agent goes on (flows/agent-resume.ts).
 */
import type { JsonObject, Node } from '../domain/node.js';
import { HIDDEN_AGENT_TOKEN, type HeartbeatRequest } from '../protocol/agent/lookup.js';
import { FAST_TRACK_LOOKUP_ALLOWED_STATES, LOOKUP_ALLOWED_STATES } from '../domain/states.js';
import { fastTrackEnabled } from '../drivers/agent/fast-track.js';
import { agentTokenMatches, newAgentToken } from '../drivers/agent/token.js';
import { isoTime } from '../shared/clock.js';
import { fail } from '../shared/errors.js';
import type { AgentLookup } from './client.js';
import type { ConductorContext } from './context.js';
import { resumeOnHeartbeat } from './flows/agent-resume.js';
import { Task, withTask } from './task.js';

/** Whether an agent may look `node` up now; a driver_info `fast_track` that is no boolean counts as off here (the flows report it). */
function lookupAllowed(ctx: ConductorContext, node: Node): boolean {
  let fastTrack = false;
  try {
    fastTrack = fastTrackEnabled(node, ctx.config);
  } catch {
    // validate and the flows name the bad value.
  }
  return (fastTrack ? FAST_TRACK_LOOKUP_ALLOWED_STATES : LOOKUP_ALLOWED_STATES).includes(node.provision_state);
}

/** How long lookups and heartbeats wait for a node lock held by a short operation before answering 409. */
const LOCK_RETRY_MS = 2000;

/** A heartbeat as the agent sends it (`POST /v1/heartbeat/{node}`). */
export type AgentHeartbeat = HeartbeatRequest;

/**
 * Finds the node for an agent: by `nodeUuid`, or by its MAC addresses (the node's ports); it must be in a
 * state an agent serves. NodeNotFound when none or several match — the agent retries — and NodeLocked
 * while the node is busy (the agent backs off).
 */
export async function lookupAgentNode(ctx: ConductorContext, macs: readonly string[], nodeUuid?: string): Promise<AgentLookup> {
  let uuid: string;
  if (nodeUuid) {
    uuid = (await ctx.store.nodes.get(nodeUuid)).uuid;
  } else {
    const ids = new Set<number>();
    for (const mac of macs) for (const p of await ctx.store.ports.list({ address: mac.toLowerCase() }, { limit: 10 })) ids.add(p.node_id);
    const candidates = await Promise.all([...ids].map((id) => ctx.store.nodes.getById(id)));
    const serving = candidates.filter((n) => lookupAllowed(ctx, n));
    if (serving.length !== 1) throw fail('agentLookupNoNode', { macs: macs.join(',') });
    uuid = (serving[0] as Node).uuid;
  }
  // A flow that just moved the node into its wait state may still hold the lock for a moment.
  return withTask(ctx, uuid, { retryMs: LOCK_RETRY_MS }, async (task) => {
    const node = task.node;
    if (!lookupAllowed(ctx, node)) {
      throw fail('agentLookupStateNotServed', { node: node.uuid, state: node.provision_state });
    }
    let token = HIDDEN_AGENT_TOKEN;
    if (typeof node.driver_internal_info.agent_secret_token !== 'string') {
      token = newAgentToken();
      task.set({ driver_internal_info: { ...node.driver_internal_info, agent_secret_token: token } });
      await task.save();
      await task.record('agent', 'agent looked the node up; agent token handed out', 'INFO', null);
    }
    return { node: task.node, token, heartbeatTimeoutS: ctx.config.agent_heartbeat_timeout_s };
  });
}

/**
 * Takes a heartbeat the API checked (`protocol/agent/lookup.ts` `HeartbeatBody`): the token must match the one handed out (InvalidParameterValue otherwise — a
 * heartbeat from an agent that never looked up, or from someone else), the callback URL must not change
 * while the agent runs. Records the agent's URL, version and time, then hands the heartbeat to the
 * node's deploy interface, which may continue the flow waiting for the agent (flows/agent-resume.ts);
 * NodeLocked while the node is busy (the agent retries), as in Ironic.
 */
export async function agentHeartbeat(ctx: ConductorContext, ident: string, hb: AgentHeartbeat): Promise<void> {
  const task = await Task.acquire(ctx, ident, { retryMs: LOCK_RETRY_MS });
  let handedOver = false;
  try {
    const dii = task.node.driver_internal_info;
    if (!agentTokenMatches(dii.agent_secret_token, hb.agent_token ?? '')) {
      throw fail('agentTokenInvalid', { node: task.node.uuid });
    }
    if (typeof dii.agent_url === 'string' && dii.agent_url !== hb.callback_url) {
      throw fail('agentCallbackUrlChanged');
    }
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
