/**
 * Power of the `ipmi` hardware type. The implementation keeps Ironic's name, `ipmitool`, so existing
 * enrollment scripts (`--power-interface ipmitool`) work unchanged.
 *
 * NOTE: despite the name no `ipmitool` process runs: Ingot speaks IPMI v2.0 RMCP+ itself (./client.ts)
 * and keeps one session per BMC.
 */
import type { PowerState } from '../../domain/node.js';
import { fail } from '../../shared/errors.js';
import type { DriverTask } from '../interfaces/base.js';
import type { PowerAction, PowerInterface } from '../interfaces/power.js';
import { realTime } from './bmc-scheduler.js';
import type { SchedulerTime } from './bmc-scheduler.js';
import { CHASSIS_CONTROL, chassisControl, GET_CHASSIS_STATUS, powerIsOn } from './commands.js';
import { bmcKey, IPMI_PROPERTIES, parseIpmiDriverInfo } from './driver-info.js';
import type { IpmiBmcInfo } from './driver-info.js';
import { asIngotError } from './errors.js';
import type { IpmiRequester } from './requester.js';

const SUPPORTED: PowerAction[] = ['power on', 'power off', 'rebooting', 'soft power off', 'soft rebooting'];

/** Default time a power action has to show in the BMC's power state, in seconds (Ironic's default too). */
export const DEFAULT_POWER_TIMEOUT_S = 30;

/** What the IPMI power interface needs. */
export interface IpmiPowerDeps {
  /** The conductor's IPMI client (sessions reused across tasks). */
  client: IpmiRequester;
  /** Time between power state reads while waiting for a target state, in ms (default 1000). */
  pollIntervalMs?: number;
  time?: SchedulerTime;
}

type OnOff = 'power on' | 'power off';

/** Reads the BMC's power state (Get Chassis Status). */
export async function readPower(client: IpmiRequester, bmc: IpmiBmcInfo, signal: AbortSignal): Promise<OnOff> {
  const status = await client.request(bmc, GET_CHASSIS_STATUS, signal);
  return powerIsOn(status) ? 'power on' : 'power off';
}

/**
 * The `ipmitool` power interface over `deps.client`. `timeoutSeconds` (default
 * {@link DEFAULT_POWER_TIMEOUT_S}) bounds each wait for a power state; a soft reboot waits twice (off, then on).
 */
export function ipmiPower(deps: IpmiPowerDeps): PowerInterface {
  const client: IpmiRequester = deps.client;
  const time = deps.time ?? realTime;
  const pollMs = deps.pollIntervalMs ?? 1000;

  /** Sends Chassis Control `action`, then polls until the power reads `target` or the deadline passes. */
  async function actAndWait(task: DriverTask, bmc: IpmiBmcInfo, action: number, target: OnOff, timeoutS: number, what: string): Promise<void> {
    const start = time.now();
    await client.request(bmc, chassisControl(action), task.signal);
    const deadline = start + timeoutS * 1000;
    let seen: OnOff | undefined;
    for (;;) {
      seen = await readPower(client, bmc, task.signal);
      if (seen === target) return;
      if (time.now() + pollMs > deadline) break;
      await time.sleep(pollMs, task.signal);
    }
    const elapsed = ((time.now() - start) / 1000).toFixed(1);
    throw fail('ipmiPowerStateNotReached', { bmc: bmcKey(bmc), target, action: what, timeout: timeoutS, seen: String(seen), elapsed });
  }

  async function guarded<T>(fn: () => Promise<T>, signal: AbortSignal): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      throw asIngotError(err, 'PowerStateFailure');
    }
  }

  return {
    name: 'ipmitool',
    properties: IPMI_PROPERTIES,
    validate(task) {
      parseIpmiDriverInfo(task.node.driver_info);
    },

    async getPowerState(task): Promise<PowerState> {
      const bmc = parseIpmiDriverInfo(task.node.driver_info);
      return guarded(() => readPower(client, bmc, task.signal), task.signal);
    },

    async setPowerState(task, state, timeoutSeconds) {
      const bmc = parseIpmiDriverInfo(task.node.driver_info);
      const timeoutS = timeoutSeconds ?? DEFAULT_POWER_TIMEOUT_S;
      await guarded(async () => {
        if (state === 'power on') await actAndWait(task, bmc, CHASSIS_CONTROL.POWER_UP, 'power on', timeoutS, 'power on');
        else if (state === 'power off') await actAndWait(task, bmc, CHASSIS_CONTROL.POWER_DOWN, 'power off', timeoutS, 'power off');
        else if (state === 'soft power off') await actAndWait(task, bmc, CHASSIS_CONTROL.SOFT_SHUTDOWN, 'power off', timeoutS, 'soft power off (ACPI)');
        else throw fail('invalidPowerState', { state });
      }, task.signal);
    },

    async reboot(task, soft, timeoutSeconds) {
      const bmc = parseIpmiDriverInfo(task.node.driver_info);
      const timeoutS = timeoutSeconds ?? DEFAULT_POWER_TIMEOUT_S;
      await guarded(async () => {
        const now = await readPower(client, bmc, task.signal);
        if (now === 'power off') {
          await actAndWait(task, bmc, CHASSIS_CONTROL.POWER_UP, 'power on', timeoutS, 'power on');
        } else if (soft) {
          await actAndWait(task, bmc, CHASSIS_CONTROL.SOFT_SHUTDOWN, 'power off', timeoutS, 'soft power off (ACPI)');
          await actAndWait(task, bmc, CHASSIS_CONTROL.POWER_UP, 'power on', timeoutS, 'power on');
        } else {
          // NOTE: a power cycle (§28.3) leaves the power off for at least 1 s; the wait for "power on"
          // may read "on" before the BMC has begun, which still ends where a reboot must: powered on.
          await actAndWait(task, bmc, CHASSIS_CONTROL.POWER_CYCLE, 'power on', timeoutS, 'power cycle');
        }
      }, task.signal);
    },

    getSupportedPowerStates: async () => [...SUPPORTED],
  };
}
