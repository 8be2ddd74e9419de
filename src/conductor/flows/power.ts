/**
 * `PUT …/states/power`: accepted once the node is locked, the power interface validated and a worker
 * reserved (target_power_state is set meanwhile); the worker changes the power, records it and clears
 * the target. A failure leaves power_state as it was, with last_error.
 */
import type { PowerState } from '../../domain/node.js';
import { fail, messageOf } from '../../shared/errors.js';
import type { PowerTarget } from '../client.js';
import type { ConductorContext } from '../context.js';
import { Task } from '../task.js';

const TARGET_STATE: Record<PowerTarget, PowerState> = {
  'power on': 'power on',
  'power off': 'power off',
  rebooting: 'power on',
  'soft power off': 'power off',
  'soft rebooting': 'power on',
};

export async function changePowerState(ctx: ConductorContext, ident: string, target: PowerTarget, timeoutSeconds?: number): Promise<void> {
  if (!(target in TARGET_STATE)) throw fail('InvalidParameterValue', `Invalid power state ${String(target)} requested.`);
  if (timeoutSeconds !== undefined && (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 1)) {
    throw fail('InvalidParameterValue', `The timeout must be a positive integer of seconds, got ${timeoutSeconds}.`);
  }
  const task = await Task.acquire(ctx, ident);
  let handedOver = false;
  try {
    const dt = task.driverTask();
    await task.driver.power.validate(dt);
    const supported = await task.driver.power.getSupportedPowerStates(dt);
    if (!supported.includes(target)) {
      throw fail('InvalidParameterValue', `The requested power state "${target}" is not supported by the power interface "${task.driver.power.name}" of node ${task.node.uuid}. Supported: ${supported.join(', ')}.`);
    }
    const slot = ctx.pool.reserve(`power ${target} ${task.node.uuid}`);
    const wanted = TARGET_STATE[target];
    try {
      task.set({ target_power_state: wanted });
      await task.save();
    } catch (err) {
      slot.cancel();
      throw err;
    }
    slot.start(async (signal) => {
      try {
        const d = task.driverTask(signal);
        const timeout = timeoutSeconds ?? ctx.config.power_state_change_timeout_s;
        if (target === 'rebooting' || target === 'soft rebooting') await task.driver.power.reboot(d, target === 'soft rebooting', timeout);
        else await task.driver.power.setPowerState(d, target, timeout);
        await task.setPower(wanted, { lastError: null });
      } catch (err) {
        const text = signal.aborted
          ? `Power change to "${target}" was abandoned: the conductor ${ctx.hostname} stopped. Check the power state and retry.`
          : `Failed to change power state to '${wanted}' by '${target}'. Error: ${messageOf(err)}`;
        try {
          task.set({ target_power_state: null, last_error: text });
          await task.save();
          await task.record('power', text, 'ERROR', null);
        } catch (e2) {
          ctx.logger.error({ err: e2, node: task.node.uuid }, 'could not record a power failure');
        }
      } finally {
        await task.release();
      }
    });
    handedOver = true;
  } finally {
    if (!handedOver) await task.release();
  }
}
