/**
 * Booting the agent ramdisk: the boot interface prepares it (configs, kernel and ramdisk, DHCP options),
 * the machine network-boots once (boot device pxe, not persistent) and is rebooted or powered on. A new
 * ramdisk looks its node up again, so the previous agent's token and URL are forgotten first.
 */
import type { Node } from '../../domain/node.js';
import type { Task } from '../task.js';
import { wipeAgentToken } from '../agent-callbacks.js';
import { checkAborted } from './run.js';

export type RamdiskMode = 'deploy' | 'clean' | 'inspect' | 'rescue' | 'service';

/** Makes the machine network-boot once: boot device pxe (one time), then reboot or power on. */
export async function bootRamdisk(task: Task, signal: AbortSignal): Promise<void> {
  const dt = task.driverTask(signal);
  const timeout = task.ctx.config.power_state_change_timeout_s;
  await task.driver.management.setBootDevice(dt, 'pxe', false);
  if ((await task.driver.power.getPowerState(dt)) === 'power on') await task.driver.power.reboot(dt, false, timeout);
  else await task.driver.power.setPowerState(dt, 'power on', timeout);
  await task.setPower('power on');
}

/** Prepares the ramdisk of `mode` and boots the machine into it. */
export async function bootAgentRamdisk(task: Task, signal: AbortSignal, mode: RamdiskMode): Promise<void> {
  wipeAgentToken(task);
  clearPendingCommand(task);
  task.set({ driver_internal_info: { ...task.node.driver_internal_info, agent_ramdisk: mode } });
  await task.save();
  await task.driver.boot.prepareRamdisk(task.driverTask(signal), mode);
  checkAborted(signal);
  await bootRamdisk(task, signal);
  await task.record('agent', `${mode} ramdisk prepared by the ${task.driver.boot.name} boot interface; machine booting from the network`, 'INFO', null);
}

/**
 * Removes the boot configuration of the ramdisk {@link bootAgentRamdisk} prepared (when it did) and
 * forgets the agent: the next ramdisk boot looks its node up again. With `keepAgent` (fast track) the
 * agent's token and URL stay: it keeps running from memory, and the next phase may use it.
 */
export async function endAgentRamdisk(task: Task, signal: AbortSignal, opts: { keepAgent?: boolean } = {}): Promise<void> {
  const mode = task.node.driver_internal_info.agent_ramdisk;
  if (typeof mode === 'string') await task.driver.boot.cleanUpRamdisk(task.driverTask(signal), mode as RamdiskMode);
  if (!opts.keepAgent) wipeAgentToken(task);
  clearPendingCommand(task);
  const { agent_ramdisk: _m, ...rest } = task.node.driver_internal_info;
  task.set({ driver_internal_info: rest });
  await task.save();
}

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
export function setPendingCommand(task: Task, pending: PendingCommand): void {
  task.set({ driver_internal_info: { ...task.node.driver_internal_info, agent_command: { ...pending } } });
}

/** Forgets the pending command. */
export function clearPendingCommand(task: Task): void {
  if (task.node.driver_internal_info.agent_command === undefined) return;
  const { agent_command: _c, ...rest } = task.node.driver_internal_info;
  task.set({ driver_internal_info: rest });
}
