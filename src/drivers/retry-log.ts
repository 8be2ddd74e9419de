/** How the BMC clients report a retry, so operators see the retry policy at work in the logs. */
export interface RetryEvent {
  /** The BMC, e.g. `https://10.0.0.5` or `10.0.0.6:623`. */
  bmc: string;
  /** What was tried, e.g. `POST /redfish/v1/Systems/1/Actions/ComputerSystem.Reset` or `Chassis Control`. */
  operation: string;
  /** The attempt that failed (1 for the first). */
  attempt: number;
  /** Why it failed. */
  reason: string;
  /** Wait before the next attempt, in milliseconds. */
  delayMs: number;
}

export type RetryObserver = (event: RetryEvent) => void;
