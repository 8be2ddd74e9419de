/**
 * Fake power: remembers the machine's power in driver_internal_info `fake_power_state` (so an out-of-band
 * change can be simulated by editing it) and answers instantly unless `fake_power_delay` is set. A
 * `fake_power_error` message in driver_internal_info makes every power operation fail with it (a BMC
 * that stopped answering, for rehearsing power failures).
 */
import type { PowerState } from '../../domain/node.js';
import { fail } from '../../shared/errors.js';
import type { DriverTask } from '../interfaces/base.js';
import type { PowerAction, PowerInterface } from '../interfaces/power.js';
import { delayProperty, fakeDelay, validateDelay } from './delay.js';

const SUPPORTED: PowerAction[] = ['power on', 'power off', 'rebooting', 'soft rebooting', 'soft power off'];

function remember(task: DriverTask, state: PowerState): void {
  task.update({ driver_internal_info: { ...task.node.driver_internal_info, fake_power_state: state } });
}

async function answer(task: DriverTask): Promise<void> {
  await fakeDelay(task, 'power');
  const error = task.node.driver_internal_info['fake_power_error'];
  if (typeof error === 'string' && error !== '') throw fail('fakePowerError', { error });
}

export function fakePower(): PowerInterface {
  return {
    name: 'fake',
    properties: delayProperty('power'),
    validate: (task) => validateDelay(task, 'power'),
    async getPowerState(task) {
      await answer(task);
      const stored = task.node.driver_internal_info['fake_power_state'];
      if (stored === 'power on' || stored === 'power off') return stored;
      return task.node.power_state === 'power on' ? 'power on' : 'power off';
    },
    async setPowerState(task, state) {
      await answer(task);
      if (state === 'power on') remember(task, 'power on');
      else if (state === 'power off' || state === 'soft power off') remember(task, 'power off');
      else throw fail('invalidPowerState', { state });
    },
    async reboot(task) {
      await answer(task);
      remember(task, 'power on');
    },
    getSupportedPowerStates: async () => [...SUPPORTED],
  };
}
