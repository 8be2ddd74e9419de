/**
 * `PUT …/states/power` (Ironic's `manager.change_node_power_state`): accepted once the node is locked, the
 * power interface validated and a worker reserved (target_power_state is set meanwhile); the worker
 * changes the power, records it and clears the target. A failure leaves power_state as it was, with
 * last_error. A power-off or reboot forgets the ramdisk agent (its token and URL): it does not survive it.
 * The power moves of the provision flows are in drivers/power-actions.ts.
 */
import type { PowerState } from '../../domain/node.js';
import { powersOff } from '../../domain/node.js';
import { fail, messageOf } from '../../shared/errors.js';
import type { PowerTarget } from '../client.js';
import type { ConductorContext } from '../context.js';
import { wipeAgentToken } from '../../drivers/agent/token.js';
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
    if (task.node.disable_power_off && powersOff(target)) throw fail('powerOffRefused', { action: target, node: task.node.uuid });
    const dt = task.driverTask();
    await task.driver.power.validate(dt);
    const supported = await task.driver.power.getSupportedPowerStates(dt);
    if (!supported.includes(target)) {
      throw fail('powerStateNotSupported', { state: target, iface: task.driver.power.name, node: task.node.uuid, supported: supported.join(', ') });
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
        if (target !== 'power on') wipeAgentToken(task.driverTask());
        await task.setPower(wanted, { lastError: null });
      },
    });
    handedOver = true;
  } finally {
    if (!handedOver) await task.release();
  }
}
