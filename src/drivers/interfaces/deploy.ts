import type { DriverInterface, DriverTask } from './base.js';

/** Result of a long operation: finished now, or waiting for the ramdisk agent to call back. */
export type AsyncResult = 'done' | 'wait';

/** Writes the instance to the machine and removes it again. */
export interface DeployInterface extends DriverInterface {
  /** True when the ramdisk agent drives the steps (it continues after `wait` and `unhold`); false/absent: the conductor does. */
  readonly waitsForAgent?: boolean;
  prepare(task: DriverTask): Promise<void>;
  /** The main deploy step. */
  deploy(task: DriverTask): Promise<AsyncResult>;
  tearDown(task: DriverTask): Promise<void>;
  cleanUp(task: DriverTask): Promise<void>;
  /** Adopts an already deployed machine (adopt) or takes it over from another conductor. */
  takeOver(task: DriverTask): Promise<void>;
  /** Readies the machine for cleaning (e.g. boots the agent). */
  prepareCleaning(task: DriverTask): Promise<AsyncResult>;
  tearDownCleaning(task: DriverTask): Promise<void>;
}
