/**
 * The power moves the provision flows make at their ends (Ironic's `manager_utils.node_power_action`
 * as the flows call it), through the node's own power interface, each persisting the power state the
 * machine ends in. For nodes with `disable_power_off` (Ironic 1.95) they act as Ironic does: where a flow
 * would power the machine off it reboots it or leaves it on, and where it would power it on it reboots
 * it (the machine was never switched off). Used by the conductor's flows and the deploy interfaces alike.
 */
import type { PowerState } from '../domain/node.js';
import type { DriverTask } from './interfaces/base.js';

/** Records in the node history that a power-off was replaced or skipped, and why. */
async function recordKeptOn(task: DriverTask, what: string): Promise<void> {
  await task.record('power', `${what}: disable_power_off is set, Ingot never powers this machine off`, 'INFO', null);
}

/**
 * Ends a phase with the machine off (`when` names the phase for the history, e.g. "at the end of
 * cleaning"). A node with `disable_power_off` is rebooted instead, after the phase's boot configuration
 * was removed, so that it leaves the ramdisk (Ironic's `tear_down_inband_cleaning` and the inspection
 * tear-down with `[inspector]power_off`). Persists the power state the machine ends in.
 */
export async function powerOffOrReboot(task: DriverTask, when: string): Promise<PowerState> {
  const timeout = task.config.power_state_change_timeout_s;
  if (!task.node.disable_power_off) {
    await task.driver.power.setPowerState(task, 'power off', timeout);
    await task.setPower('power off');
    return 'power off';
  }
  await task.driver.power.reboot(task, false, timeout);
  await task.setPower('power on');
  await recordKeptOn(task, `rebooted instead of powered off ${when}`);
  return 'power on';
}

/**
 * Powers the machine off unless the node has `disable_power_off`, in which case the machine is left as
 * it is (Ironic's deploy `tear_down` and `prepare`); returns whether it was powered off. A flow that
 * skipped the power-off reboots the machine later with {@link rebootIfKeptOn}.
 */
export async function powerOffUnlessDisabled(task: DriverTask, when: string): Promise<boolean> {
  if (task.node.disable_power_off) {
    await recordKeptOn(task, `not powered off ${when}`);
    return false;
  }
  await task.driver.power.setPowerState(task, 'power off', task.config.power_state_change_timeout_s);
  await task.setPower('power off');
  return true;
}

/**
 * Reboots a node with `disable_power_off` whose power-off a flow skipped, once what it ran is gone
 * (Ironic's deploy `clean_up` after `clean_up_instance`, so that the machine no longer runs the
 * instance); does nothing for other nodes.
 */
export async function rebootIfKeptOn(task: DriverTask): Promise<void> {
  if (!task.node.disable_power_off) return;
  await task.driver.power.reboot(task, false, task.config.power_state_change_timeout_s);
  await task.setPower('power on');
}

/**
 * Powers the machine on; a node with `disable_power_off` is rebooted instead, since it was never
 * switched off and still runs what came before (Ironic's `boot_instance` deploy step, the inspection
 * start and `tear_down_inband_service`). Persists the power state.
 */
export async function powerOnOrReboot(task: DriverTask): Promise<void> {
  const timeout = task.config.power_state_change_timeout_s;
  if (task.node.disable_power_off) await task.driver.power.reboot(task, false, timeout);
  else await task.driver.power.setPowerState(task, 'power on', timeout);
  await task.setPower('power on');
}
