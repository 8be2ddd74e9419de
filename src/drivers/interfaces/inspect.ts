import type { DriverInterface, DriverTask } from './base.js';
import type { AsyncResult } from './deploy.js';

/** Discovers a machine's hardware properties. */
export interface InspectInterface extends DriverInterface {
  /** Inspects; `wait` means results arrive later (the agent calls back). */
  inspectHardware(task: DriverTask): Promise<AsyncResult>;
}
