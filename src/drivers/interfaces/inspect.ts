import type { DriverInterface, DriverTask } from './base.js';
import type { AsyncResult } from './deploy.js';

/** Discovers a machine's hardware properties. */
export interface InspectInterface extends DriverInterface {
  /** Inspects; `wait` means results arrive later (the agent calls back; an in-band interface boots the ramdisk first). */
  inspectHardware(task: DriverTask): Promise<AsyncResult>;
  /** Cancels an inspection running elsewhere (an external ironic-inspector) when the node's inspect wait is aborted. */
  abort?(task: DriverTask): Promise<void>;
}

declare module './base.js' {
  interface InterfaceContracts {
    inspect: InspectInterface;
  }
}
