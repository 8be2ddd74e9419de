import type { PowerState } from '../../domain/node.js';
import type { DriverInterface, DriverTask } from './base.js';

/** Power states a caller may ask for (Ironic's `target` values of PUT …/states/power). */
export type PowerAction = 'power on' | 'power off' | 'rebooting' | 'soft power off' | 'soft rebooting';

/** Reads and changes the power of a machine. */
export interface PowerInterface extends DriverInterface {
  getPowerState(task: DriverTask): Promise<PowerState>;
  /** Sets `state` ('power on', 'power off', 'soft power off'); resolves once the machine is there. */
  setPowerState(task: DriverTask, state: PowerAction, timeoutSeconds?: number): Promise<void>;
  /** Power cycles (hard or soft); the machine ends powered on. */
  reboot(task: DriverTask, soft: boolean, timeoutSeconds?: number): Promise<void>;
  getSupportedPowerStates(task: DriverTask): Promise<PowerAction[]>;
}

declare module './base.js' {
  interface InterfaceContracts {
    power: PowerInterface;
  }
}
