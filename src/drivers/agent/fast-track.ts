/**
 * Fast track (Ironic `[deploy]fast_track`, `manager_utils.fast_track_able` / `is_fast_track`): the
 * ramdisk agent is left running after inspection and cleaning, with its token, and the machine stays
 * on; the next cleaning or deployment uses that agent instead of booting the ramdisk again. On by
 * `conductor.fast_track`, or per node by driver_info `fast_track` (which wins). A node with a
 * last_error, or in rescue, is never fast-tracked.
 *
 * Before using a running agent the deploy interface checks, as Ironic does, that the machine is on and
 * the agent was heard within `conductor.fast_track_timeout_s` — and then asks the agent itself (its
 * `get_clean_steps` / `get_deploy_steps`, which also hands it the node as it is now, with its root
 * device hints). An agent that does not answer is not waited for: the ramdisk is booted as without fast
 * track, and the history says why. The conductor's lookup reads {@link fastTrackEnabled} too.
 */
import type { ConductorConfig } from '../../config/conductor.js';
import type { Node } from '../../domain/node.js';
import { S } from '../../domain/states.js';
import { AGENT_COMMANDS } from '../../protocol/agent/commands.js';
import { messageOf } from '../../shared/errors.js';
import { toBool } from '../../shared/strict-bool.js';
import type { DriverTask } from '../interfaces/base.js';
import { nodeForAgent } from './node-for-agent.js';
import { lastHeartbeatMs } from './token.js';

/** How long the running agent may take to answer before the ramdisk is booted instead. */
const AGENT_PROBE_TIMEOUT_MS = 10_000;

/** Whether fast track is on for `node`: driver_info `fast_track`, else the conductor's. InvalidParameterValue for a value that is no boolean. */
export function fastTrackEnabled(node: Pick<Node, 'driver_info'>, config: Pick<ConductorConfig, 'fast_track'>): boolean {
  const own = node.driver_info.fast_track;
  return own === undefined || own === null ? config.fast_track : toBool('driver_info fast_track', own);
}

/** Whether the node may keep or use a running agent now (Ironic `fast_track_able`). */
export function fastTrackAble(task: Pick<DriverTask, 'node' | 'config'>): boolean {
  const n = task.node;
  return fastTrackEnabled(n, task.config) && n.last_error === null && n.provision_state !== S.RESCUING && n.provision_state !== S.RESCUEWAIT;
}

/** Seconds since the agent's last heartbeat, or null when no agent is known (no URL or no heartbeat). */
export function agentSilenceS(node: Pick<Node, 'driver_internal_info'>, nowMs: number): number | null {
  const heard = lastHeartbeatMs(node);
  if (typeof node.driver_internal_info.agent_url !== 'string' || heard === null) return null;
  return Math.max(0, (nowMs - heard) / 1000);
}

/** Why the node's running agent cannot be used, or null when it can (machine on, agent heard recently); asks the BMC. */
async function whyNoRunningAgent(task: DriverTask): Promise<string | null> {
  const silence = agentSilenceS(task.node, task.clock.now());
  const limit = task.config.fast_track_timeout_s;
  if (silence === null) return 'no agent is running';
  if (silence > limit) return `the agent was last heard ${Math.round(silence)} s ago, more than fast_track_timeout_s (${limit} s)`;
  const power = await task.driver.power.getPowerState(task);
  if (power !== 'power on') return `the machine is ${power}`;
  return null;
}

/**
 * At the end of cleaning: whether the agent stays running (fast track on, the machine on, the agent
 * heard recently), so that the machine is neither powered off nor the agent forgotten.
 */
export async function keepsRunningAgent(task: DriverTask): Promise<boolean> {
  return fastTrackAble(task) && (await whyNoRunningAgent(task)) === null;
}

/** The history event of a cleaning or deployment the running agent takes (no ramdisk boot). */
export function runningAgentEvent(url: string, kind: 'clean' | 'deploy'): string {
  return `fast track: the running agent at ${url} takes the ${kind} steps; no ramdisk boot`;
}

/** Whether history event `text` says the running agent took the `kind` steps ({@link runningAgentEvent}). */
export function isRunningAgentEvent(text: string, kind: 'clean' | 'deploy'): boolean {
  return text.startsWith('fast track: the running agent at ') && text.endsWith(` takes the ${kind} steps; no ramdisk boot`);
}

/**
 * At the start of cleaning or a deployment: whether the node's running agent takes the steps, so no
 * ramdisk is booted (see the module doc). Records the decision in the node history when fast track is on.
 */
export async function useRunningAgent(task: DriverTask, kind: 'clean' | 'deploy'): Promise<boolean> {
  if (!fastTrackAble(task)) return false;
  let why = await whyNoRunningAgent(task);
  const url = String(task.node.driver_internal_info.agent_url);
  if (why === null) {
    const command = kind === 'clean' ? AGENT_COMMANDS.getCleanSteps : AGENT_COMMANDS.getDeploySteps;
    try {
      const signal = AbortSignal.any([task.signal, AbortSignal.timeout(AGENT_PROBE_TIMEOUT_MS)]);
      await task.agent.client.command(task.node, command, { node: nodeForAgent(task.node), ports: [] }, { wait: true, signal });
    } catch (err) {
      task.signal.throwIfAborted();
      why = `the agent at ${url} did not answer (${messageOf(err)})`;
    }
  }
  if (why !== null) {
    await task.record('agent', `fast track: ${why}; booting the ${kind} ramdisk`, 'INFO', null);
    return false;
  }
  await task.record('agent', runningAgentEvent(url, kind), 'INFO', null);
  return true;
}
