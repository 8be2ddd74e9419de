/**
 * What the BMC drivers keep between tasks: the Redfish clients (sessions, keep-alive connections, per-BMC
 * request limits) and the IPMI client (RMCP+ sessions, per-BMC pacing), plus the client of an external
 * ironic-inspector service. One set per conductor, created with its configuration and closed when it
 * stops; implementations receive it when they are built.
 */
import type { InspectorConfig } from '../config/inspector.js';
import type { IpmiConfig } from '../config/ipmi.js';
import type { RedfishConfig } from '../config/redfish.js';
import { InspectorClient } from './inspector/client.js';
import { IpmiClient } from './ipmi/client.js';
import { RedfishClientPool } from './redfish/pool.js';
import type { RetryObserver } from './retry-log.js';
import type { NetworkBootEnvironment } from './network-boot/environment.js';

export interface DriverResources {
  readonly redfish: RedfishClientPool;
  readonly ipmi: IpmiClient;
  /** The ironic-inspector service of the `inspector` inspect interface; null when `[inspector] service_url` is empty. */
  readonly inspector: InspectorClient | null;
  /**
   * What the `pxe` and `ipxe` boot interfaces need (DHCP provider, boot roots, agent API URL, image cache,
   * ports, boot device); null when network boot is not configured: those interfaces then fail with ConfigInvalid.
   */
  readonly boot: NetworkBootEnvironment | null;
  /** Logs out of BMC sessions and closes sockets. */
  close(): Promise<void>;
}

/** Driver resources from the `redfish`, `ipmi` and `inspector` config groups (defaults for what is missing) and the network boot environment. */
export function createDriverResources(
  config: {
    redfish?: Partial<RedfishConfig>;
    ipmi?: Partial<IpmiConfig>;
    inspector?: Pick<Partial<InspectorConfig>, 'service_url'>;
    /** The network boot environment, built by the composition root (it owns the DHCP provider and the image cache). */
    boot?: NetworkBootEnvironment | null;
  } = {},
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
  const inspectorUrl = config.inspector?.service_url?.trim() ?? '';
  const inspector = inspectorUrl ? new InspectorClient({ url: inspectorUrl }) : null;
  return {
    redfish,
    ipmi,
    inspector,
    boot: config.boot ?? null,
    async close() {
      await Promise.allSettled([redfish.close(), ipmi.closeAll()]);
    },
  };
}
