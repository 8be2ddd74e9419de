import type { JsonObject } from '../../domain/node.js';
import type { DriverInterface, DriverTask } from './base.js';

/** Firmware components and their updates. */
export interface FirmwareInterface extends DriverInterface {
  update(task: DriverTask, settings: JsonObject[]): Promise<void>;
  cacheFirmwareComponents(task: DriverTask): Promise<void>;
}

declare module './base.js' {
  interface InterfaceContracts {
    firmware: FirmwareInterface;
  }
}
