import type { DriverInterface, DriverTask } from './base.js';
import type { AsyncResult } from './deploy.js';

/** Discovers a machine's hardware properties. */
export interface InspectInterface extends DriverInterface {
  /**
   * True for in-band inspection: before `inspectHardware`, the conductor makes the machine boot the
   * ramdisk (one-time network boot, then a reboot) so that its agent can report.
   */
  readonly bootsRamdisk?: boolean;
  /** Inspects; `wait` means results arrive later (the agent calls back). */
  inspectHardware(task: DriverTask): Promise<AsyncResult>;
  /** Cancels an inspection running elsewhere (an external inspector) when the node's inspect wait is aborted. */
  abort?(task: DriverTask): Promise<void>;
}

declare module './base.js' {
  interface InterfaceContracts {
    inspect: InspectInterface;
  }
}
