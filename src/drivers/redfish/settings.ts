/**
 * Tunables of the Redfish driver, one record with Ironic's `[redfish]` defaults. The composition root maps
 * configuration onto it; tests pass small intervals so retries and polls run in milliseconds.
 */

/** How the Redfish client connects, retries and waits. Times are in milliseconds unless the name says otherwise. */
export interface RedfishSettings {
  /** Tries of one request on connection errors, 5xx and 409 (Ironic `[redfish] connection_attempts`). */
  connection_attempts: number;
  /** Wait before the first retry; doubles each retry up to `max_retry_interval_ms` (Ironic `connection_retry_interval`, 4 s). */
  connection_retry_interval_ms: number;
  /** Ceiling of the exponential back-off between retries. */
  max_retry_interval_ms: number;
  /** Time allowed for one HTTP request, connect to last byte, unless driver_info `redfish_request_timeout` says otherwise. */
  request_timeout_ms: number;
  /** Requests in flight at once to one BMC (scheme + host + port); BMCs are small computers. */
  max_concurrent_requests_per_bmc: number;
  /** Deadline of a task monitor (the 202 Accepted → Location polling of a long operation). */
  task_timeout_ms: number;
  /** Poll interval of a task monitor when the BMC sends no Retry-After. */
  task_poll_interval_ms: number;
  /** Seconds a power change may take to show in PowerState (the `timeoutSeconds` default). */
  power_state_timeout_s: number;
  /** Interval between PowerState reads while waiting for a power change. */
  power_poll_interval_ms: number;
}

/** Defaults; `connection_attempts` and the retry interval are Ironic's. */
export const DEFAULT_REDFISH_SETTINGS: Readonly<RedfishSettings> = Object.freeze({
  connection_attempts: 5,
  connection_retry_interval_ms: 4000,
  max_retry_interval_ms: 30_000,
  request_timeout_ms: 60_000,
  max_concurrent_requests_per_bmc: 4,
  task_timeout_ms: 600_000,
  task_poll_interval_ms: 1000,
  power_state_timeout_s: 30,
  power_poll_interval_ms: 1000,
});

/** `DEFAULT_REDFISH_SETTINGS` with `overrides` applied. */
export function redfishSettings(overrides: Partial<RedfishSettings> = {}): RedfishSettings {
  return { ...DEFAULT_REDFISH_SETTINGS, ...overrides };
}
