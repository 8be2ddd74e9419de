/**
 * The asynchronous agent command a step waits for, kept in `driver_internal_info.agent_command` (Ironic
 * keeps the step's state in `driver_internal_info` too and asks the agent for its command list at each
 * heartbeat, `agent_base._get_completed_command`). Written by the step that sent the command, read by
 * the deploy interface's heartbeat handling and the conductor's command watch.
 */
import type { Node } from '../../domain/node.js';
import type { DriverTask } from '../interfaces/base.js';

/** The asynchronous agent command a step is waiting for (`driver_internal_info.agent_command`). */
export interface PendingCommand {
  /** Command name without extension, as the agent lists it (`prepare_image`, `execute_clean_step`); null: waiting for the agent to come up. */
  command: string | null;
  /** `<interface>.<step>` that sent it. */
  step: string;
  /** ISO time it was sent. */
  started_at: string;
}

/** The node's pending command, or null. */
export function pendingCommand(node: Pick<Node, 'driver_internal_info'>): PendingCommand | null {
  const p = node.driver_internal_info.agent_command;
  if (!p || typeof p !== 'object' || Array.isArray(p)) return null;
  const { command, step, started_at } = p as Record<string, unknown>;
  if ((typeof command !== 'string' && command !== null) || typeof step !== 'string' || typeof started_at !== 'string') return null;
  return { command, step, started_at };
}

/** Records the command a step sent and now waits for. */
export function setPendingCommand(task: Pick<DriverTask, 'node' | 'update'>, pending: PendingCommand): void {
  task.update({ driver_internal_info: { ...task.node.driver_internal_info, agent_command: { ...pending } } });
}

/** Forgets the pending command. */
export function clearPendingCommand(task: Pick<DriverTask, 'node' | 'update'>): void {
  if (task.node.driver_internal_info.agent_command === undefined) return;
  const { agent_command: _c, ...rest } = task.node.driver_internal_info;
  task.update({ driver_internal_info: rest });
}
