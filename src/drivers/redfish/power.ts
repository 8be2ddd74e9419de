/**
 * Redfish power (`power_interface = redfish`): reads ComputerSystem.PowerState and changes it with the
 * ComputerSystem.Reset action, using only ResetType values the system allows, then waits until PowerState
 * shows the change. Mapping as Ironic's `drivers/modules/redfish/power.py`.
 */
import type { PowerState } from '../../domain/node.js';
import { sleep } from '../../shared/clock.js';
import { fail } from '../../shared/errors.js';
import type { DriverTask } from '../interfaces/base.js';
import type { PowerAction, PowerInterface } from '../interfaces/power.js';
import type { RedfishResource } from './client.js';
import { parseRedfishDriverInfo, REDFISH_PROPERTIES } from './driver-info.js';
import {
  allowedResetTypes, noResetType, openSystem, pickResetType, readSystem, resetSystem, type RedfishInterfaceOptions, type SystemHandle,
} from './system.js';

/** ResetType values to try, best first, for each change. */
const ON = ['On', 'ForceOn', 'PushPowerButton'] as const;
const OFF = ['ForceOff', 'PushPowerButton'] as const;
const SOFT_OFF = ['GracefulShutdown', 'PushPowerButton'] as const;
const HARD_RESTART = ['ForceRestart', 'PowerCycle'] as const;
const SOFT_RESTART = ['GracefulRestart'] as const;

/** Ironic's power state of a Redfish `PowerState`; transitional states count as where they are heading. */
export function powerStateOf(value: unknown): PowerState {
  if (value === 'On' || value === 'PoweringOn') return 'power on';
  if (value === 'Off' || value === 'PoweringOff') return 'power off';
  return 'error';
}

/** The power actions a system allowing `allowed` ResetType values supports. */
export function supportedPowerActions(allowed: readonly string[]): PowerAction[] {
  const has = (set: readonly string[]) => pickResetType(allowed, set) !== null;
  const out: PowerAction[] = [];
  if (has(ON)) out.push('power on');
  if (has(OFF)) out.push('power off');
  if (has(SOFT_OFF)) out.push('soft power off');
  if (has(HARD_RESTART) || (has(ON) && has(OFF))) out.push('rebooting');
  if (has(SOFT_RESTART) || (has(ON) && has(SOFT_OFF))) out.push('soft rebooting');
  return out;
}

export function redfishPower(opts: RedfishInterfaceOptions): PowerInterface {
  const settings = () => opts.pool.settings;

  /** Reads PowerState until it is `target` or the deadline passes. */
  async function waitFor(h: SystemHandle, target: 'power on' | 'power off', timeoutSeconds: number): Promise<void> {
    const started = Date.now();
    const deadline = started + timeoutSeconds * 1000;
    let last: unknown = null;
    for (;;) {
      last = (await readSystem(h))['PowerState'];
      if (powerStateOf(last) === target) return;
      if (Date.now() >= deadline) break;
      await sleep(Math.min(settings().power_poll_interval_ms, Math.max(0, deadline - Date.now())), h.signal);
    }
    const elapsed = ((Date.now() - started) / 1000).toFixed(1);
    throw fail('redfishPowerStateNotReached', { bmc: h.client.bmc, system: h.path, target, timeout: timeoutSeconds, last: String(JSON.stringify(last)), elapsed });
  }

  /** Applies the first allowed of `candidates` and waits for `target`. */
  async function change(
    h: SystemHandle, system: RedfishResource, allowed: readonly string[], what: string,
    candidates: readonly string[], target: 'power on' | 'power off', timeoutSeconds: number,
  ): Promise<void> {
    const resetType = pickResetType(allowed, candidates);
    if (!resetType) throw noResetType(h, what, candidates, allowed);
    await resetSystem(h, system, resetType);
    await waitFor(h, target, timeoutSeconds);
  }

  async function reboot(task: DriverTask, soft: boolean, timeoutSeconds?: number): Promise<void> {
    const timeout = timeoutSeconds ?? settings().power_state_timeout_s;
    const h = await openSystem(task, opts);
    const system = await readSystem(h);
    const allowed = await allowedResetTypes(h, system);
    if (powerStateOf(system['PowerState']) !== 'power on') {
      await change(h, system, allowed, 'power on', ON, 'power on', timeout);
      return;
    }
    const restart = pickResetType(allowed, soft ? SOFT_RESTART : HARD_RESTART);
    if (restart) {
      await resetSystem(h, system, restart);
      await waitFor(h, 'power on', timeout);
      return;
    }
    // No restart type: power off (gracefully for a soft reboot), then on.
    await change(h, system, allowed, soft ? 'soft reboot' : 'reboot', soft ? SOFT_OFF : OFF, 'power off', timeout);
    await change(h, system, allowed, 'power on', ON, 'power on', timeout);
  }

  return {
    name: 'redfish',
    properties: REDFISH_PROPERTIES,
    validate(task) {
      parseRedfishDriverInfo(task.node);
    },
    async getPowerState(task) {
      const h = await openSystem(task, opts);
      return powerStateOf((await readSystem(h))['PowerState']);
    },
    async setPowerState(task, state, timeoutSeconds) {
      if (state === 'rebooting' || state === 'soft rebooting') return reboot(task, state === 'soft rebooting', timeoutSeconds);
      if (state !== 'power on' && state !== 'power off' && state !== 'soft power off') {
        throw fail('invalidPowerState', { state: String(state) });
      }
      const timeout = timeoutSeconds ?? settings().power_state_timeout_s;
      const h = await openSystem(task, opts);
      const system = await readSystem(h);
      const target = state === 'power on' ? 'power on' : 'power off';
      // Already there: no reset (PushPowerButton would toggle the machine the wrong way).
      if (powerStateOf(system['PowerState']) === target) return;
      const allowed = await allowedResetTypes(h, system);
      const candidates = state === 'power on' ? ON : state === 'power off' ? OFF : SOFT_OFF;
      await change(h, system, allowed, state, candidates, target, timeout);
    },
    reboot,
    async getSupportedPowerStates(task) {
      const h = await openSystem(task, opts);
      return supportedPowerActions(await allowedResetTypes(h, await readSystem(h)));
    },
  };
}
