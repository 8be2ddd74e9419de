import type { JsonObject } from '../../domain/node.js';
import type { DriverInterface, DriverTask } from './base.js';

/** Result of a long operation: finished now, or waiting for the ramdisk agent to call back. */
export type AsyncResult = 'done' | 'wait';

/** A step an interface runs without being asked, at its default priority (0: only when requested). */
export interface DefaultStep {
  step: string;
  priority: number;
  args?: JsonObject;
}

/** Writes the instance to the machine and removes it again. */
export interface DeployInterface extends DriverInterface {
  /**
   * True when the ramdisk agent carries the deployment: the conductor boots the agent ramdisk at the
   * `deploy` step, waits in `wait call-back`, and each heartbeat of the agent lets it run the next of
   * {@link deploySteps} (and continue after `unhold`). False/absent: the conductor runs the steps itself.
   */
  readonly waitsForAgent?: boolean;
  /**
   * True when cleaning boots the agent ramdisk and runs {@link cleanSteps} on the agent (Ironic's
   * in-band cleaning); false/absent: cleaning runs the interfaces' own steps in the conductor.
   */
  readonly cleansWithAgent?: boolean;
  /** The deploy steps besides `deploy` (priority 100), with their default priorities (Ironic's agent deploy). */
  readonly deploySteps?: readonly DefaultStep[];
  /** The clean steps the agent offers, with their default priorities (the conductor may override them). */
  readonly cleanSteps?: readonly DefaultStep[];
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
