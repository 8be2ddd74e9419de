/** Wait-state timeouts: a node waiting for its agent longer than the configured time fails, with what to do. */
import type { Node } from '../../domain/node.js';
import { S, type ProvisionState } from '../../domain/states.js';
import { IngotError, messageOf } from '../../shared/errors.js';
import type { ConductorConfig } from '../../config/conductor.js';
import type { ConductorContext } from '../context.js';
import { lastHeartbeatMs } from '../../drivers/agent/token.js';
import { failureExtras } from '../flows/phases.js';
import { failTask } from '../flows/run.js';
import { Task } from '../task.js';
import { eachNode } from './nodes.js';
import { periodicLoop } from './loop.js';

interface WaitRule {
  timeout: keyof ConductorConfig;
  message(uuid: string, seconds: number): string;
}

export const WAIT_TIMEOUTS: Partial<Record<ProvisionState, WaitRule>> = {
  [S.DEPLOYWAIT]: {
    timeout: 'deploy_callback_timeout_s',
    message: (u, s) => `Timeout reached while waiting for callback for node ${u} (deploy_callback_timeout_s=${s}). Check that the node boots the deploy ramdisk and reaches the API, then deploy again or undeploy.`,
  },
  [S.CLEANWAIT]: {
    timeout: 'clean_callback_timeout_s',
    message: (u, s) => `Timeout reached while cleaning node ${u} (clean_callback_timeout_s=${s}). Please check if the ramdisk responsible for the cleaning is running on the node, then unset maintenance, manage and provide it again.`,
  },
  [S.INSPECTWAIT]: {
    timeout: 'inspect_wait_timeout_s',
    message: (u, s) => `Timeout reached while inspecting node ${u} (inspect_wait_timeout_s=${s}). Check that the node boots the inspection ramdisk, then inspect again.`,
  },
  [S.RESCUEWAIT]: {
    timeout: 'rescue_callback_timeout_s',
    message: (u, s) => `Timeout reached while waiting for rescue ramdisk callback for node ${u} (rescue_callback_timeout_s=${s}). Check that the node boots the rescue ramdisk, then rescue again or unrescue.`,
  },
  [S.SERVICEWAIT]: {
    timeout: 'service_callback_timeout_s',
    message: (u, s) => `Timeout reached while servicing node ${u} (service_callback_timeout_s=${s}). Check that the ramdisk is running on the node, then service again or abort.`,
  },
};

/**
 * When the node last showed progress: entering its wait state, or its agent's last heartbeat (an agent
 * busy writing an image heartbeats; one that stopped lets the wait time out).
 */
function lastSignOfLife(node: Node): number {
  const entered = node.provision_updated_at ? Date.parse(node.provision_updated_at) : NaN;
  const heard = lastHeartbeatMs(node);
  if (Number.isNaN(entered)) return heard ?? Infinity;
  return heard === null ? entered : Math.max(entered, heard);
}

/** The timeout text for a node whose agent heartbeated and then fell silent (null when it never did). */
function silentAgent(node: Node, seconds: number): string | null {
  const hb = node.driver_internal_info.agent_last_heartbeat;
  if (typeof hb !== 'string' || (node.provision_state !== S.DEPLOYWAIT && node.provision_state !== S.CLEANWAIT)) return null;
  const step = node.provision_state === S.DEPLOYWAIT ? node.deploy_step : node.clean_step;
  const doing = step && typeof step.step === 'string' ? ` during ${String(step.interface)}.${step.step}` : '';
  const what = node.provision_state === S.DEPLOYWAIT ? 'Deploy' : 'Cleaning';
  const next = node.provision_state === S.DEPLOYWAIT ? 'deploy again or undeploy' : 'unset maintenance, manage and provide it again';
  return `${what} of node ${node.uuid} timed out: its agent stopped heartbeating${doing} (last heartbeat ${hb}, nothing for ${seconds} s). The machine hung, rebooted or lost its network: check its console, then ${next}.`;
}

/** One round: fails every expired waiting node this conductor manages; returns their UUIDs. */
export async function checkWaitTimeoutsOnce(ctx: ConductorContext): Promise<string[]> {
  const failed: string[] = [];
  const now = ctx.clock.now();
  const states = Object.keys(WAIT_TIMEOUTS) as ProvisionState[];
  for await (const node of eachNode(ctx, { provision_states: states })) {
    const rule = WAIT_TIMEOUTS[node.provision_state] as WaitRule;
    const seconds = ctx.config[rule.timeout] as number;
    const expired = (n: Node) => n.provision_state === node.provision_state && lastSignOfLife(n) <= now - seconds * 1000;
    if (node.reservation !== null || !expired(node) || ctx.rings.hostFor(node) !== ctx.hostname) continue;
    try {
      const task = await Task.acquire(ctx, node.uuid);
      try {
        if (!expired(task.node)) continue;
        await failTask(task, silentAgent(task.node, seconds) ?? rule.message(node.uuid, seconds), failureExtras);
        failed.push(node.uuid);
      } finally {
        await task.release();
      }
    } catch (err) {
      if (err instanceof IngotError && (err.code === 'NodeLocked' || err.code === 'NodeNotFound')) continue;
      ctx.logger.warn({ err, node: node.uuid }, `timeout check of node ${node.uuid} failed: ${messageOf(err)}`);
    }
  }
  return failed;
}

export function runWaitTimeouts(ctx: ConductorContext, signal: AbortSignal): Promise<void> {
  return periodicLoop('wait-timeouts', ctx.config.check_provision_state_interval_s * 1000, () => checkWaitTimeoutsOnce(ctx), signal, ctx.logger);
}
