/**
 * Booting the agent ramdisk and ending it, and in-band cleaning around it (Ironic's
 * `deploy_utils.prepare_inband_cleaning` / `tear_down_inband_cleaning` and the ramdisk parts of
 * `AgentDeploy`): the boot interface prepares the ramdisk (configs, kernel and ramdisk, DHCP options), the
 * machine network-boots once (boot device pxe, not persistent) and is rebooted or powered on — all through
 * the node's own interfaces. A new ramdisk looks its node up again, so the previous agent's token and URL
 * are forgotten first.
 */
import { checkAborted } from '../../shared/abort.js';
import type { DriverTask, Step } from '../interfaces/base.js';
import type { BootInterface } from '../interfaces/boot.js';
import type { AsyncResult } from '../interfaces/deploy.js';
import { powerOffOrReboot } from '../power-actions.js';
import { keepsRunningAgent, useRunningAgent } from './fast-track.js';
import { agentCleanSteps } from './in-band-steps.js';
import { clearPendingCommand } from './pending-command.js';
import { wipeAgentToken } from './token.js';

/** What a ramdisk is booted for. */
export type RamdiskMode = Parameters<BootInterface['prepareRamdisk']>[1];

/** Makes the machine network-boot once: boot device pxe (one time), then reboot or power on. */
export async function bootRamdisk(task: DriverTask): Promise<void> {
  const timeout = task.config.power_state_change_timeout_s;
  await task.driver.management.setBootDevice(task, 'pxe', false);
  if ((await task.driver.power.getPowerState(task)) === 'power on') await task.driver.power.reboot(task, false, timeout);
  else await task.driver.power.setPowerState(task, 'power on', timeout);
  await task.setPower('power on');
}

/** Prepares the ramdisk of `mode` and boots the machine into it. */
export async function bootAgentRamdisk(task: DriverTask, mode: RamdiskMode): Promise<void> {
  wipeAgentToken(task);
  clearPendingCommand(task);
  task.update({ driver_internal_info: { ...task.node.driver_internal_info, agent_ramdisk: mode } });
  await task.save();
  await task.driver.boot.prepareRamdisk(task, mode);
  checkAborted(task.signal);
  await bootRamdisk(task);
  await task.record('agent', `${mode} ramdisk prepared by the ${task.driver.boot.name} boot interface; machine booting from the network`, 'INFO', null);
}

/**
 * Removes the boot configuration of the ramdisk {@link bootAgentRamdisk} prepared (when it did) and
 * forgets the agent: the next ramdisk boot looks its node up again. With `keepAgent` (fast track) the
 * agent's token and URL stay: it keeps running from memory, and the next phase may use it.
 */
export async function endAgentRamdisk(task: DriverTask, opts: { keepAgent?: boolean } = {}): Promise<void> {
  const mode = task.node.driver_internal_info.agent_ramdisk;
  if (typeof mode === 'string') await task.driver.boot.cleanUpRamdisk(task, mode as RamdiskMode);
  if (!opts.keepAgent) wipeAgentToken(task);
  clearPendingCommand(task);
  const { agent_ramdisk: _m, ...rest } = task.node.driver_internal_info;
  task.update({ driver_internal_info: rest });
  await task.save();
}

/**
 * Readies in-band cleaning (Ironic's `prepare_inband_cleaning`): when none of `steps` runs on the agent,
 * nothing is booted and the conductor runs them at once; with fast track, the agent still running from
 * the previous phase takes them at once; otherwise the machine boots the clean ramdisk (`wait`) and its
 * agent's heartbeats run the steps.
 */
export async function prepareInbandCleaning(task: DriverTask, steps: readonly Pick<Step, 'interface' | 'step'>[]): Promise<AsyncResult> {
  const agentSteps = agentCleanSteps(task);
  const inBand = steps.some((s) => s.interface === 'deploy' && Object.hasOwn(agentSteps, s.step));
  if (!inBand || (await useRunningAgent(task, 'clean'))) return 'done';
  await bootAgentRamdisk(task, 'clean');
  return 'wait';
}

/**
 * Ends cleaning as Ironic's `tear_down_inband_cleaning` does: the clean ramdisk's boot configuration is
 * removed and the machine powered off (a node with disable_power_off is rebooted instead, out of the
 * ramdisk) — or, with fast track, the agent keeps running and the machine stays on.
 */
export async function tearDownInbandCleaning(task: DriverTask): Promise<void> {
  const keepAgent = await keepsRunningAgent(task);
  await endAgentRamdisk(task, { keepAgent });
  if (keepAgent) await task.record('agent', 'fast track: the agent keeps running after cleaning; the machine stays on', 'INFO', null);
  else await powerOffOrReboot(task, 'at the end of cleaning');
}
