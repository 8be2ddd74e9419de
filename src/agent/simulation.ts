/**
 * The agent of a simulated machine: what a ramdisk would do after a network boot, without booting — the
 * inventory of the machine's hardware profile, posted to the inspection callback, and the deploy agent
 * (lookup, heartbeats, command API) writing images to the machine's disk files. The BMC emulator runs
 * them when a simulated machine boots from the network.
 */
import type { HardwareProfile } from '../protocol/hardware/profile.js';
import { buildInspectionPayload } from './collectors/payload.js';
import { defaultAgentConfig } from './config.js';
import { simulatedHardwareManager } from './hardware/simulated.js';
import { postInspection } from './inspect.js';
import { hostSystem } from './system.js';
import { type DeployAgent, startDeployAgent } from './deploy-agent.js';
import { simulatedDeployHost } from './deploy-host.js';
import type { DownloadSettings } from './extensions/context.js';

export interface SimulatedInspection {
  profile: HardwareProfile;
  callbackUrl: string;
  /** The BMC address the machine would read from its BMC. */
  bmcAddress: string | null;
  /** Report this ramdisk error instead of a clean inventory (fault injection). */
  error?: string | null;
  /** Give up posting after this long (default 60 s). */
  totalTimeoutMs?: number;
  signal?: AbortSignal;
}

/** What the inspection callback answered a simulated agent. */
export interface SimulatedInspectionAnswer {
  status: number;
  /** The node UUID of the answer (`{"uuid": …}`), which the deploy agent then looks up by; null when absent. */
  nodeUuid: string | null;
}

/** Collects the profile's inventory and posts it; resolves with the callback's status and node UUID. */
export async function postSimulatedInspection(opts: SimulatedInspection): Promise<SimulatedInspectionAnswer> {
  const bootMac = opts.profile.nics.find((n) => n.pxe_enabled)?.mac ?? opts.profile.nics[0]?.mac ?? null;
  const manager = simulatedHardwareManager(opts.profile, { bmcAddress: opts.bmcAddress ?? undefined, bootMac: bootMac ?? undefined });
  const config = { ...defaultAgentConfig(), inspectionCallbackUrl: opts.callbackUrl, bootMac };
  const { payload } = await buildInspectionPayload(config, manager, hostSystem());
  if (opts.error) payload.error = opts.error;
  const answer = await postInspection(opts.callbackUrl, payload, { totalTimeoutMs: opts.totalTimeoutMs ?? 60_000, initialDelayMs: 200, maxDelayMs: 5000, signal: opts.signal });
  const uuid = (answer.body as { uuid?: unknown } | null)?.uuid;
  return { status: answer.status, nodeUuid: typeof uuid === 'string' ? uuid : null };
}

/** Collects the profile's inventory and posts it; resolves with the HTTP status of the answer. */
export async function runSimulatedInspection(opts: SimulatedInspection): Promise<number> {
  return (await postSimulatedInspection(opts)).status;
}

/** Options of {@link startSimulatedDeployAgent}. */
export interface SimulatedDeploy {
  profile: HardwareProfile;
  /** Ingot's (or Ironic's) API, e.g. `http://127.0.0.1:6385`. */
  apiUrl: string;
  /** Disk name (`/dev/sda`) → the file that is that disk; missing files are created sparse at the profile's size. */
  disks: Record<string, string>;
  /** Node UUID to look up by, when known. */
  nodeUuid?: string | null;
  /** Where the agent's API listens (default 127.0.0.1, a free port). */
  listenHost?: string;
  listenPort?: number;
  /** The address the conductor is told to call (default: the listen address). */
  advertiseHost?: string;
  /** `standby.power_off` ran: the machine should be off now (the BMC emulator turns it off). */
  onPowerOff?: () => void | Promise<void>;
  /** `standby.run_image` ran: the machine should reboot from its disk. */
  onReboot?: () => void | Promise<void>;
  /** Lookup pacing (default 600 s in all, 0.2 s first wait, 5 s longest wait). */
  lookupTimeoutMs?: number;
  lookupIntervalMs?: number;
  lookupMaxIntervalMs?: number;
  /** Shortest gap before a forced heartbeat (default 5 s, as IPA). */
  heartbeatMinIntervalMs?: number;
  /** Image download retries (default 2, 1 s apart: a simulated fleet should fail fast). */
  download?: Partial<DownloadSettings>;
  log?: (message: string) => void;
  /** Told after each heartbeat attempt: whether it was accepted, and why not. */
  onHeartbeat?: (ok: boolean, error: string | null) => void;
  signal?: AbortSignal;
}

/**
 * Starts the deploy agent of a simulated machine in this process: it looks its node up by the profile's
 * MACs, serves the command API and heartbeats, writing images to the machine's disk files. Resolves once
 * the API listens; `done` resolves when a command powered the machine off or rebooted it, or on stop.
 */
export async function startSimulatedDeployAgent(opts: SimulatedDeploy): Promise<DeployAgent> {
  const listenHost = opts.listenHost ?? '127.0.0.1';
  return startDeployAgent({
    apiUrl: opts.apiUrl,
    host: simulatedDeployHost(opts.profile, { diskFiles: opts.disks, onPowerOff: opts.onPowerOff, onReboot: opts.onReboot }),
    system: hostSystem(),
    addresses: opts.profile.nics.map((n) => n.mac.toLowerCase()),
    nodeUuid: opts.nodeUuid ?? null,
    listenHost,
    listenPort: opts.listenPort ?? 0,
    advertiseHost: opts.advertiseHost ?? (listenHost === '0.0.0.0' ? null : listenHost),
    lookupTimeoutMs: opts.lookupTimeoutMs,
    lookupIntervalMs: opts.lookupIntervalMs ?? 200,
    lookupMaxIntervalMs: opts.lookupMaxIntervalMs ?? 5000,
    heartbeatMinIntervalMs: opts.heartbeatMinIntervalMs,
    download: { retries: 2, retryIntervalMs: 1000, ...opts.download },
    log: opts.log,
    onHeartbeat: opts.onHeartbeat,
    signal: opts.signal,
  });
}
