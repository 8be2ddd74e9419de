/**
 * `PUT …/states/power`: accepted once the node is locked, the power interface validated and a worker
 * reserved (target_power_state is set meanwhile); the worker changes the power, records it and clears
 * the target. A failure leaves power_state as it was, with last_error. A power-off or reboot forgets the
 * ramdisk agent (its token and URL): it does not survive it.
 *
 * Also the power moves the provision flows make at their ends, for nodes with `disable_power_off`
 * (Ironic 1.95) as Ironic makes them: where a flow would power the machine off it reboots it or leaves
 * it on, and where it would power it on it reboots it (the machine was never switched off).
 */
import type { PowerState } from '../../domain/node.js';
import { powerOffRefusal, powersOff } from '../../domain/node.js';
import { fail, messageOf } from '../../shared/errors.js';
import type { PowerTarget } from '../client.js';
import type { ConductorContext } from '../context.js';
import { wipeAgentToken } from '../agent-callbacks.js';
import { Task } from '../task.js';
import { reserveWorker, startNodeAction } from './run.js';

const TARGET_STATE: Record<PowerTarget, PowerState> = {
  'power on': 'power on',
  'power off': 'power off',
  rebooting: 'power on',
  'soft power off': 'power off',
  'soft rebooting': 'power on',
};

export async function changePowerState(ctx: ConductorContext, ident: string, target: PowerTarget, timeoutSeconds?: number): Promise<void> {
  const task = await Task.acquire(ctx, ident);
  let handedOver = false;
  try {
    // Under the lock, so that a request cannot race an update of the flag (the API checks only the request).
    if (task.node.disable_power_off && powersOff(target)) throw fail('InvalidState', powerOffRefusal(task.node, target));
    const dt = task.driverTask();
    await task.driver.power.validate(dt);
    const supported = await task.driver.power.getSupportedPowerStates(dt);
    if (!supported.includes(target)) {
      throw fail('InvalidParameterValue', `The requested power state "${target}" is not supported by the power interface "${task.driver.power.name}" of node ${task.node.uuid}. Supported: ${supported.join(', ')}.`);
    }
    const wanted = TARGET_STATE[target];
    const slot = await reserveWorker(task, `power ${target} ${task.node.uuid}`, { target_power_state: wanted });
    startNodeAction(task, slot, {
      eventType: 'power',
      onFailure: { target_power_state: null },
      abandoned: `Power change to "${target}" was abandoned: the conductor ${ctx.hostname} stopped. Check the power state and retry.`,
      describe: (err) => `Failed to change power state to '${wanted}' by '${target}'. Error: ${messageOf(err)}`,
      run: async (signal) => {
        const d = task.driverTask(signal);
        const timeout = timeoutSeconds ?? ctx.config.power_state_change_timeout_s;
        if (target === 'rebooting' || target === 'soft rebooting') await task.driver.power.reboot(d, target === 'soft rebooting', timeout);
        else await task.driver.power.setPowerState(d, target, timeout);
        // A ramdisk agent does not survive a power-off or reboot (Ironic's `wipe_internal_info_on_power_off`).
        if (target !== 'power on') wipeAgentToken(task);
        await task.setPower(wanted, { lastError: null });
      },
    });
    handedOver = true;
  } finally {
    if (!handedOver) await task.release();
  }
}

/** Records in the node history that a power-off was replaced or skipped, and why. */
async function recordKeptOn(task: Task, what: string): Promise<void> {
  await task.record('power', `${what}: disable_power_off is set, Ingot never powers this machine off`, 'INFO', null);
}

/**
 * Ends a phase with the machine off (`when` names the phase for the history, e.g. "at the end of
 * cleaning"). A node with `disable_power_off` is rebooted instead, after the phase's boot configuration
 * was removed, so that it leaves the ramdisk (Ironic's `tear_down_inband_cleaning` and the inspection
 * tear-down with `[inspector]power_off`). Persists the power state the machine ends in.
 */
export async function powerOffOrReboot(task: Task, signal: AbortSignal, when: string): Promise<PowerState> {
  const timeout = task.ctx.config.power_state_change_timeout_s;
  if (!task.node.disable_power_off) {
    await task.driver.power.setPowerState(task.driverTask(signal), 'power off', timeout);
    await task.setPower('power off');
    return 'power off';
  }
  await task.driver.power.reboot(task.driverTask(signal), false, timeout);
  await task.setPower('power on');
  await recordKeptOn(task, `rebooted instead of powered off ${when}`);
  return 'power on';
}

/**
 * Powers the machine off unless the node has `disable_power_off`, in which case the machine is left as
 * it is (Ironic's deploy `tear_down` and `prepare`); returns whether it was powered off. A flow that
 * skipped the power-off reboots the machine later with {@link rebootIfKeptOn}.
 */
export async function powerOffUnlessDisabled(task: Task, signal: AbortSignal, when: string): Promise<boolean> {
  if (task.node.disable_power_off) {
    await recordKeptOn(task, `not powered off ${when}`);
    return false;
  }
  await task.driver.power.setPowerState(task.driverTask(signal), 'power off', task.ctx.config.power_state_change_timeout_s);
  await task.setPower('power off');
  return true;
}

/**
 * Reboots a node with `disable_power_off` whose power-off a flow skipped, once what it ran is gone
 * (Ironic's deploy `clean_up` after `clean_up_instance`, so that the machine no longer runs the
 * instance); does nothing for other nodes.
 */
export async function rebootIfKeptOn(task: Task, signal: AbortSignal): Promise<void> {
  if (!task.node.disable_power_off) return;
  await task.driver.power.reboot(task.driverTask(signal), false, task.ctx.config.power_state_change_timeout_s);
  await task.setPower('power on');
}

/**
 * Powers the machine on; a node with `disable_power_off` is rebooted instead, since it was never
 * switched off and still runs what came before (Ironic's `boot_instance` deploy step, the inspection
 * start and `tear_down_inband_service`). Persists the power state.
 */
export async function powerOnOrReboot(task: Task, signal: AbortSignal): Promise<void> {
  const timeout = task.ctx.config.power_state_change_timeout_s;
  if (task.node.disable_power_off) await task.driver.power.reboot(task.driverTask(signal), false, timeout);
  else await task.driver.power.setPowerState(task.driverTask(signal), 'power on', timeout);
  await task.setPower('power on');
}
