/**
 * Task monitors (DSP0266 §12.2 "Asynchronous operations"): a BMC answers a long operation with 202
 * Accepted and a `Location`; GET on it answers 202 while the task runs and the operation's own answer
 * once it is done. Some services answer 200 with the Task resource instead, so its TaskState is read too.
 */
import { sleep } from '../../shared/clock.js';
import { redfishError } from './errors.js';
import type { RedfishReply } from './reply.js';
import { retryAfterMs } from './retry-after.js';

/** Task states that mean the task is still going (Redfish Task schema, TaskState). */
const RUNNING = new Set(['New', 'Starting', 'Running', 'Suspended', 'Interrupted', 'Pending', 'Stopping', 'Service']);
const FAILED = new Set(['Exception', 'Killed', 'Cancelled']);

export interface TaskMonitorOptions {
  /** The BMC, for messages. */
  bmc: string;
  /** The operation (`POST /redfish/v1/…`), for messages. */
  what: string;
  timeoutMs: number;
  /** Wait between polls when the BMC sends no Retry-After. */
  pollIntervalMs: number;
  /** GETs the monitor; throws on a non-2xx answer. */
  poll: (monitor: string) => Promise<RedfishReply>;
  signal?: AbortSignal;
}

function header(reply: RedfishReply, name: string): string | null {
  const v = reply.headers[name];
  return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
}

function taskMessages(body: RedfishReply['body']): string {
  const list = body?.['Messages'];
  if (!Array.isArray(list)) return '';
  return list
    .map((m: unknown) => (typeof m === 'object' && m !== null && typeof (m as Record<string, unknown>)['Message'] === 'string' ? (m as Record<string, string>)['Message'] : ''))
    .filter(Boolean)
    .join(' ');
}

/**
 * The final answer of the operation `reply` answered: `reply` itself unless it is a 202 with a
 * `Location`, else the monitor's answer once the task is done (waiting Retry-After or the poll interval
 * between polls, up to the deadline).
 */
export async function followTaskMonitor(reply: RedfishReply, opts: TaskMonitorOptions): Promise<RedfishReply> {
  if (reply.status !== 202) return reply;
  const monitor = header(reply, 'location');
  if (!monitor) return reply;
  const deadline = Date.now() + opts.timeoutMs;
  let current = reply;
  for (;;) {
    const wait = retryAfterMs(current.headers['retry-after']) ?? opts.pollIntervalMs;
    if (Date.now() + wait > deadline) {
      throw redfishError(202, 'redfishTaskTimedOut', { bmc: opts.bmc, operation: opts.what, monitor, timeout: Math.round(opts.timeoutMs / 1000) });
    }
    await sleep(wait, opts.signal);
    current = await opts.poll(monitor);
    if (current.status === 202) continue;
    const state = current.body?.['TaskState'];
    if (typeof state === 'string' && RUNNING.has(state)) continue;
    if (typeof state === 'string' && FAILED.has(state)) {
      const messages = taskMessages(current.body);
      const task = { bmc: opts.bmc, operation: opts.what, state };
      throw messages ? redfishError(current.status, 'redfishTaskFailedSaying', { ...task, messages }) : redfishError(current.status, 'redfishTaskFailed', task);
    }
    return current;
  }
}
