/** What the command extensions share: the machine, the cached node, settings and the agent's lifecycle. */
import type { AgentSystem } from '../system.js';
import type { DeployHost } from '../deploy-host.js';

/** Image download settings (IPA `image_download_connection_*`). */
export interface DownloadSettings {
  /** Extra attempts per URL after a connection error or 5xx (default 9). */
  retries: number;
  /** Wait between attempts (default 10 s). */
  retryIntervalMs: number;
  /** No data for this long fails an attempt (default 60 s). */
  timeoutMs: number;
}

/** Why the agent stops serving. */
export type AgentExitReason = 'power_off' | 'reboot' | 'stopped';

/** Handed to every extension. */
export interface ExtensionContext {
  host: DeployHost;
  system: AgentSystem;
  log(message: string): void;
  /** The agent's own log so far (for `log.collect_system_logs`). */
  logText(): string;
  /** The node as the lookup (or the last step command) gave it. */
  node(): Record<string, unknown> | null;
  setNode(node: Record<string, unknown>): void;
  download: DownloadSettings;
  /** Skip TLS verification for downloads. */
  insecure: boolean;
  /** Whether MD5 image checksums are allowed (lookup `config.agent_md5_checksum_enable`). */
  allowMd5(): boolean;
  signal: AbortSignal;
  /** Stops the agent after the current answer went out (power off, reboot). */
  exit(reason: AgentExitReason): void;
}
