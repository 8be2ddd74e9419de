/**
 * What the ramdisk agent asks of the conductor (Ironic's `lookup` and `heartbeat`, `ramdisk.py` and
 * `manager.py` `get_node_with_token` / `heartbeat`). Lookup finds the agent's node by its MACs or UUID
 * among the nodes an agent may serve, and hands out the agent token once: a 43-character secret kept in
 * `driver_internal_info.agent_secret_token`, never shown by the API, and shown to later lookups as
 * `******`. Heartbeats must carry that token; each records where the agent listens (`agent_url`), its
 * version and time, and lets the deploy interface drive its next step.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { JsonObject, Node } from '../domain/node.js';
import { HIDDEN_AGENT_TOKEN, type HeartbeatRequest } from '../protocol/agent/lookup.js';
import { S, type ProvisionState } from '../domain/states.js';
import { isoTime } from '../shared/clock.js';
import { fail, messageOf } from '../shared/errors.js';
import { pendingCommand } from './flows/agent-boot.js';
import { continueAgentFlow, heartbeatContinues } from './flows/agent-continue.js';
import { fastTrackEnabled } from './flows/fast-track.js';
import { provisionFailureHandlers } from './flows/phases.js';
import { startFlow } from './flows/run.js';
import type { ConductorContext } from './context.js';
import { Task, withTask } from './task.js';

/** States in which an agent may look its node up (Ironic `LOOKUP_ALLOWED_STATES`). */
export const LOOKUP_ALLOWED_STATES: readonly ProvisionState[] = [
  S.DEPLOYING, S.DEPLOYWAIT, S.CLEANING, S.CLEANWAIT, S.INSPECTING, S.INSPECTWAIT, S.RESCUING, S.RESCUEWAIT, S.SERVICING, S.SERVICEWAIT,
];

/**
 * States in which an agent may look up a node with fast track on (Ironic `FASTTRACK_LOOKUP_ALLOWED_STATES`):
 * also the stable states an agent keeps running in between phases.
 */
export const FAST_TRACK_LOOKUP_ALLOWED_STATES: readonly ProvisionState[] = [
  S.ENROLL, S.MANAGEABLE, S.AVAILABLE, ...LOOKUP_ALLOWED_STATES, S.SERVICEHOLD,
];

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

/** The agent token: 32 random bytes, URL-safe base64 (43 characters), as Python's `secrets.token_urlsafe()`. */
export function newAgentToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What lookup answers. */
export interface AgentLookup {
  node: Node;
  /** The token the first time, {@link HIDDEN_AGENT_TOKEN} after. */
  token: string;
  heartbeatTimeoutS: number;
}

/** A heartbeat as the agent sends it (`POST /v1/heartbeat/{node}`). */
export type AgentHeartbeat = HeartbeatRequest;

function notFound(what: string): Error {
  return fail('NodeNotFound', `Node ${what} could not be found.`);
}

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
    if (serving.length !== 1) throw notFound(`with addresses ${macs.join(',')}`);
    uuid = (serving[0] as Node).uuid;
  }
  // A flow that just moved the node into its wait state may still hold the lock for a moment.
  return withTask(ctx, uuid, { retryMs: LOCK_RETRY_MS }, async (task) => {
    const node = task.node;
    if (!lookupAllowed(ctx, node)) {
      throw fail('NodeNotFound', `Node ${node.uuid} is in provision state "${node.provision_state}", in which no agent serves it.`);
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

/** Constant-time comparison of the stored and the given token. */
function tokenMatches(stored: unknown, given: string): boolean {
  if (typeof stored !== 'string') return false;
  const a = Buffer.from(stored);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Takes a heartbeat the API checked (`protocol/agent/lookup.ts` `HeartbeatBody`): the token must match the one handed out (InvalidParameterValue otherwise — a
 * heartbeat from an agent that never looked up, or from someone else), the callback URL must not change
 * while the agent runs. Records the agent's URL, version and time; NodeLocked while the node is busy
 * (the agent retries), as in Ironic.
 */
export async function agentHeartbeat(ctx: ConductorContext, ident: string, hb: AgentHeartbeat): Promise<void> {
  const task = await Task.acquire(ctx, ident, { retryMs: LOCK_RETRY_MS });
  let handedOver = false;
  try {
    const dii = task.node.driver_internal_info;
    if (!tokenMatches(dii.agent_secret_token, hb.agent_token ?? '')) {
      throw fail('InvalidParameterValue', `Invalid or missing agent token received for node ${task.node.uuid}.`);
    }
    if (typeof dii.agent_url === 'string' && dii.agent_url !== hb.callback_url) {
      throw fail('InvalidParameterValue', 'Detected change in ramdisk provided "callback_url".');
    }
    const recorded: JsonObject = { ...dii, agent_url: hb.callback_url, agent_last_heartbeat: isoTime(ctx.clock.now()) };
    if (hb.agent_version) recorded.agent_version = hb.agent_version;
    if (hb.agent_verify_ca) recorded.agent_verify_ca = hb.agent_verify_ca;
    task.set({ driver_internal_info: recorded });
    await task.save();
    if (dii.agent_url === undefined) {
      await task.record('agent', `agent${hb.agent_version ? ` ${hb.agent_version}` : ''} listening at ${hb.callback_url}`, 'INFO', null);
    }
    handedOver = continueInWorker(task);
  } finally {
    if (!handedOver) await task.release();
  }
}

/**
 * Hands the task to a worker that continues the node's agent-driven flow, when the heartbeat continues
 * one; returns whether it did. With every worker busy the heartbeat only counts as a sign of life: the
 * agent heartbeats again.
 */
function continueInWorker(task: Task): boolean {
  if (!heartbeatContinues(task)) return false;
  const name = `heartbeat ${task.node.uuid}`;
  let slot;
  try {
    slot = task.ctx.pool.reserve(name);
  } catch (err) {
    task.ctx.logger.warn({ node: task.node.uuid }, `heartbeat of node ${task.node.uuid} not acted on: ${messageOf(err)}`);
    return false;
  }
  startFlow(task, slot, name, provisionFailureHandlers(task, (signal) => continueAgentFlow(task, signal)));
  return true;
}

/**
 * When, after a command is sent, the watch looks at it (ms between looks): ~3 s in all. Short commands
 * (erase_devices_metadata takes a second, writing a small image a few) are then taken at once instead of
 * at the agent's next heartbeat, which comes at least 5 s after the previous one.
 */
const COMMAND_WATCH_MS = [100, 200, 400, 800, 1500];

/** The longest one look of the watch may take: an agent that does not answer is the heartbeats' business. */
const COMMAND_WATCH_LOOK_TIMEOUT_MS = 5000;

/**
 * Watches the command a step just sent while its flow waits for the agent: looks at it a few times
 * ({@link COMMAND_WATCH_MS}) holding nothing, and once it has finished continues the flow as the agent's
 * heartbeat would. A busy node (the flow still saving, a heartbeat being taken) is looked at again; a
 * conductor that stops meanwhile leaves the node waiting for the heartbeat, as without the watch.
 */
export function watchAgentCommand(ctx: ConductorContext, node: Node, command: string): void {
  const watch = async (): Promise<void> => {
    for (const delay of COMMAND_WATCH_MS) {
      await new Promise((resolve) => setTimeout(resolve, delay).unref());
      // Not while a flow works on the node (the one that sent the command may still be saving it, a
      // heartbeat's may be powering the machine off); once unlocked, a command already taken ends the watch.
      const now = await ctx.store.nodes.get(node.uuid);
      if (now.reservation !== null) continue;
      if (pendingCommand(now)?.command !== command) return;
      const result = await ctx.agent.lastCommand(node, command, AbortSignal.timeout(COMMAND_WATCH_LOOK_TIMEOUT_MS)).catch(() => null);
      if (!result || result.command_status === 'RUNNING') continue;
      const task = await Task.acquire(ctx, node.uuid).catch(() => null);
      if (!task) continue;
      let handedOver = false;
      try {
        // Another step's command, or a heartbeat took this one already.
        if (pendingCommand(task.node)?.command !== command) return;
        handedOver = continueInWorker(task);
        return;
      } finally {
        if (!handedOver) await task.release();
      }
    }
  };
  watch().catch((err: unknown) => ctx.logger.debug({ node: node.uuid }, `watching the agent's ${command}: ${messageOf(err)}`));
}

/** When the node's agent last heartbeated (ms since the epoch), or null when it has not since its token was handed out. */
export function lastHeartbeatMs(node: Pick<Node, 'driver_internal_info'>): number | null {
  const at = node.driver_internal_info.agent_last_heartbeat;
  const ms = typeof at === 'string' ? Date.parse(at) : NaN;
  return Number.isNaN(ms) ? null : ms;
}

/** Forgets the agent token and URL (a new ramdisk boot must look the node up again), as Ironic's `wipe_token_and_url`. */
export function wipeAgentToken(task: Task): void {
  const { agent_secret_token: _t, agent_url: _u, agent_last_heartbeat: _h, agent_verify_ca: _c, ...rest } = task.node.driver_internal_info;
  if (Object.keys(rest).length !== Object.keys(task.node.driver_internal_info).length) task.set({ driver_internal_info: rest });
}
