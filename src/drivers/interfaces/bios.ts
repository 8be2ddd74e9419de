import type { JsonObject } from '../../domain/node.js';
import type { DriverInterface, DriverTask } from './base.js';

/** BIOS/UEFI settings. */
export interface BiosInterface extends DriverInterface {
  applyConfiguration(task: DriverTask, settings: JsonObject[]): Promise<void>;
  factoryReset(task: DriverTask): Promise<void>;
  cacheBiosSettings(task: DriverTask): Promise<void>;
}

declare module './base.js' {
  interface InterfaceContracts {
    bios: BiosInterface;
  }
}
