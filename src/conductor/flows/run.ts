/**
 * Running a flow in the background: the request thread takes the lock, checks the request, reserves a
 * worker and makes the first transition; the worker does the slow part and always ends by releasing the
 * lock. A flow that throws goes through its error handler, which moves the node to the failure state of
 * where it was with `last_error` saying what happened and what to do.
 */
import type { NodeChanges } from '../../db/store.js';
import { failureStateOf, type ProvisionState } from '../../domain/states.js';
import { messageOf } from '../../shared/errors.js';
import type { Task } from '../task.js';
import { nextStepAfter } from './next-steps.js';
import type { WorkerSlot } from '../workers.js';

/** Thrown into running flows (as the abort reason) when the conductor stops before they finish. */
export class ConductorStopping extends Error {
  constructor(readonly hostname: string) {
    super(`the conductor ${hostname} is stopping`);
    this.name = 'ConductorStopping';
  }
}

/** `last_error` for work that was cut off by the conductor going away. */
export function abandonedMessage(state: ProvisionState, host: string): string {
  return `${state} failed: the conductor ${host} stopped while the operation was in progress and it cannot be resumed. ${nextStepAfter(state)}`;
}

/** The last_error text of an error. */
export function reasonOf(err: unknown): string {
  const text = messageOf(err);
  return text.endsWith('.') ? text : `${text}.`;
}

export interface FlowHandlers {
  /** The slow part; runs in a worker while the task keeps the lock. */
  run(signal: AbortSignal): Promise<void>;
  /** Text of last_error for a failure (without the abandon case, handled here). */
  describe(err: unknown): string;
  /** Extra changes on failure (e.g. maintenance with a fault after a cleaning failure). */
  onFailure?(task: Task): void;
  /** Work before a failure is written (collecting the agent's logs); returns text appended to last_error. */
  beforeFailure?(): Promise<string | null>;
}

/** Starts `handlers.run` in `slot`; the task is released when the worker ends, however it ends. */
export function startFlow(task: Task, slot: WorkerSlot, name: string, handlers: FlowHandlers): void {
  slot.start(async (signal) => {
    try {
      await handlers.run(signal);
    } catch (err) {
      let message = signal.aborted ? abandonedMessage(task.node.provision_state, task.ctx.hostname) : handlers.describe(err);
      const extra = signal.aborted ? null : await handlers.beforeFailure?.().catch(() => null);
      if (extra) message = `${message} ${extra}`;
      await failTask(task, message, signal.aborted ? undefined : handlers.onFailure).catch(
        (e2: unknown) => task.ctx.logger.error({ err: e2, node: task.node.uuid }, `flow ${name}: error handler failed: ${messageOf(e2)}`),
      );
      if (!signal.aborted) task.ctx.logger.warn({ err, node: task.node.uuid }, `flow ${name} failed: ${messageOf(err)}`);
    } finally {
      await task.release().catch((e3: unknown) => task.ctx.logger.error({ err: e3, node: task.node.uuid }, `flow ${name}: release failed`));
    }
  });
}

/** Moves the task's node to its failure state with `message` (or just records the message when none). */
export async function failTask(task: Task, message: string, extra?: (task: Task) => void): Promise<void> {
  task.set({ clean_step: {}, deploy_step: {}, service_step: {}, target_power_state: null });
  extra?.(task);
  if (failureStateOf(task.node.provision_state)) {
    await task.process('fail', { lastError: message });
  } else {
    task.set({ last_error: message });
    await task.save();
  }
}

/**
 * Reserves a worker for `task` and writes `changes` first (e.g. target_power_state, or clearing
 * last_error); the reservation is given back when the write fails.
 */
export async function reserveWorker(task: Task, name: string, changes: NodeChanges): Promise<WorkerSlot> {
  const slot = task.ctx.pool.reserve(name);
  try {
    task.set(changes);
    await task.save();
  } catch (err) {
    slot.cancel();
    throw err;
  }
  return slot;
}

export interface NodeActionHandlers {
  /** The slow part; runs in a worker while the task keeps the lock. */
  run(signal: AbortSignal): Promise<void>;
  /** last_error for a failure. */
  describe(err: unknown): string;
  /** last_error when the conductor stopped before the action ended. */
  abandoned: string;
  /** The history event type of a failure (`power`, `management`). */
  eventType: string;
  /** Extra changes written with a failure. */
  onFailure?: NodeChanges;
}

/**
 * Starts a node action that is no provision transition (power, boot mode, virtual media) in `slot`: a
 * failure is written to last_error and the node history, and the lock is released when the worker ends,
 * however it ends (Ironic's `run_node_action`).
 */
export function startNodeAction(task: Task, slot: WorkerSlot, handlers: NodeActionHandlers): void {
  slot.start(async (signal) => {
    try {
      await handlers.run(signal);
    } catch (err) {
      const text = signal.aborted ? handlers.abandoned : handlers.describe(err);
      try {
        task.set({ ...handlers.onFailure, last_error: text });
        await task.save();
        await task.record(handlers.eventType, text, 'ERROR', null);
      } catch (e2) {
        task.ctx.logger.error({ err: e2, node: task.node.uuid }, `could not record a failure (${text}): ${messageOf(e2)}`);
      }
    } finally {
      await task.release();
    }
  });
}
