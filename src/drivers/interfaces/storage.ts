import type { DriverInterface, DriverTask } from './base.js';

/** Remote volumes (boot from volume). */
export interface StorageInterface extends DriverInterface {
  attachVolumes(task: DriverTask): Promise<void>;
  detachVolumes(task: DriverTask): Promise<void>;
  /** False when the instance boots from a remote volume and no image is written. */
  shouldWriteImage(task: DriverTask): boolean;
}

declare module './base.js' {
  interface InterfaceContracts {
    storage: StorageInterface;
  }
}
