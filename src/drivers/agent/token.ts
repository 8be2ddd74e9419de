/**
 * The agent token and the agent's last heartbeat, as the node keeps them in `driver_internal_info`
 * (Ironic's `agent_secret_token`, `agent_url`, `agent_last_heartbeat`; `utils.wipe_token_and_url`). The
 * conductor's lookup hands the token out, its heartbeat checks it; the ramdisk boot, a power-off, the end
 * of a flow (but for fast track) and every failure or abort of one forget it, so that the next ramdisk
 * looks its node up again.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Node } from '../../domain/node.js';
import type { DriverTask } from '../interfaces/base.js';

/** The agent token: 32 random bytes, URL-safe base64 (43 characters), as Python's `secrets.token_urlsafe()`. */
export function newAgentToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Constant-time comparison of the stored and the given token. */
export function agentTokenMatches(stored: unknown, given: string): boolean {
  if (typeof stored !== 'string') return false;
  const a = Buffer.from(stored);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** When the node's agent last heartbeated (ms since the epoch), or null when it has not since its token was handed out. */
export function lastHeartbeatMs(node: Pick<Node, 'driver_internal_info'>): number | null {
  const at = node.driver_internal_info.agent_last_heartbeat;
  const ms = typeof at === 'string' ? Date.parse(at) : NaN;
  return Number.isNaN(ms) ? null : ms;
}

/** `driver_internal_info` without the agent's token, URL, heartbeat time and certificate, or null when it holds none of them. */
export function withoutAgent(dii: Node['driver_internal_info']): Node['driver_internal_info'] | null {
  const { agent_secret_token: _t, agent_url: _u, agent_last_heartbeat: _h, agent_verify_ca: _c, ...rest } = dii;
  return Object.keys(rest).length !== Object.keys(dii).length ? rest : null;
}

/** Forgets the agent token and URL (a new ramdisk boot must look the node up again), as Ironic's `wipe_token_and_url`. */
export function wipeAgentToken(task: Pick<DriverTask, 'node' | 'update'>): void {
  const rest = withoutAgent(task.node.driver_internal_info);
  if (rest !== null) task.update({ driver_internal_info: rest });
}
