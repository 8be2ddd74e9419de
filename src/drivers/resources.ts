/**
 * What the BMC drivers keep between tasks: the Redfish clients (sessions, keep-alive connections, per-BMC
 * request limits) and the IPMI client (RMCP+ sessions, per-BMC pacing). One set per conductor, created
 * with its configuration and closed when it stops; implementations receive it when they are built.
 */
import type { IpmiConfig } from '../config/ipmi.js';
import type { RedfishConfig } from '../config/redfish.js';
import { IpmiClient } from './ipmi/client.js';
import { RedfishClientPool } from './redfish/pool.js';
import type { RetryObserver } from './retry-log.js';

export interface DriverResources {
  readonly redfish: RedfishClientPool;
  readonly ipmi: IpmiClient;
  /** Logs out of BMC sessions and closes sockets. */
  close(): Promise<void>;
}

/** Driver resources from the `redfish` and `ipmi` config groups (defaults for what is missing). */
export function createDriverResources(
  config: { redfish?: Partial<RedfishConfig>; ipmi?: Partial<IpmiConfig> } = {},
  onRetry?: RetryObserver,
): DriverResources {
  const r = config.redfish ?? {};
  const ms = (s: number | undefined) => (s === undefined ? undefined : s * 1000);
  const settings = Object.fromEntries(
    Object.entries({
      connection_attempts: r.connection_attempts,
      connection_retry_interval_ms: ms(r.connection_retry_interval_s),
      max_retry_interval_ms: ms(r.max_retry_interval_s),
      request_timeout_ms: ms(r.request_timeout_s),
      max_concurrent_requests_per_bmc: r.max_concurrent_requests_per_bmc,
      task_timeout_ms: ms(r.task_timeout_s),
    }).filter(([, v]) => v !== undefined),
  );
  const redfish = new RedfishClientPool({ settings, onRetry });
  const ipmi = new IpmiClient(config.ipmi ?? {}, onRetry);
  return {
    redfish,
    ipmi,
    async close() {
      await Promise.allSettled([redfish.close(), ipmi.closeAll()]);
    },
  };
}
