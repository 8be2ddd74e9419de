import type { DriverInterface, DriverTask } from './base.js';
import type { AsyncResult } from './deploy.js';

/** Boots a rescue ramdisk on a deployed machine and back. */
export interface RescueInterface extends DriverInterface {
  rescue(task: DriverTask): Promise<AsyncResult>;
  unrescue(task: DriverTask): Promise<void>;
}

declare module './base.js' {
  interface InterfaceContracts {
    rescue: RescueInterface;
  }
}
