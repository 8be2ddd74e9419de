import type { DriverInterface, DriverTask } from './base.js';

/** How the ramdisk and the instance get booted (PXE, iPXE, virtual media, …). */
export interface BootInterface extends DriverInterface {
  prepareRamdisk(task: DriverTask, mode: 'deploy' | 'rescue' | 'inspect' | 'clean' | 'service'): Promise<void>;
  cleanUpRamdisk(task: DriverTask, mode: 'deploy' | 'rescue' | 'inspect' | 'clean' | 'service'): Promise<void>;
  prepareInstance(task: DriverTask): Promise<void>;
  cleanUpInstance(task: DriverTask): Promise<void>;
}

declare module './base.js' {
  interface InterfaceContracts {
    boot: BootInterface;
  }
}
