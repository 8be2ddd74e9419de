import { Type, type Static } from 'typebox';

/** The Redfish driver: how its client retries, waits and limits itself per BMC (Ironic's `[redfish]`). */
export const RedfishConfig = Type.Object({
  connection_attempts: Type.Integer({ default: 5, minimum: 1, description: 'Tries of one request on connection errors, 5xx and 409 answers.' }),
  connection_retry_interval_s: Type.Number({ default: 4, minimum: 0, description: 'Wait before the first retry; it doubles with each retry.' }),
  max_retry_interval_s: Type.Number({ default: 30, minimum: 0, description: 'Longest wait between two retries.' }),
  request_timeout_s: Type.Number({ default: 60, exclusiveMinimum: 0, description: 'Time one HTTP request may take (driver_info redfish_request_timeout overrides it per node).' }),
  max_concurrent_requests_per_bmc: Type.Integer({ default: 4, minimum: 1, description: 'Requests in flight at once to one BMC (scheme, host and port).' }),
  task_timeout_s: Type.Number({ default: 600, exclusiveMinimum: 0, description: 'Longest wait for a BMC task (an operation answered 202 Accepted).' }),
});
export type RedfishConfig = Static<typeof RedfishConfig>;
