/**
 * The agent's flow: configuration → inventory → collectors → POST to the inspection callback, then (with
 * `ipa-api-url`) lookup → heartbeats → the command API until the machine is powered off or rebooted.
 * Used by `ingot agent` and by the bundled ramdisk entry (main-entry.ts). Exit codes: 0 done, 1
 * inspection or lookup failed, 2 bad configuration.
 */
import { readFile } from 'node:fs/promises';
import type { Inventory, InventoryInterface } from '../protocol/agent/inventory.js';
import type { HardwareProfile } from '../protocol/hardware/profile.js';
import { fail, messageOf } from '../shared/errors.js';
import { type AgentConfig, agentUsage, loadAgentConfig } from './config.js';
import { buildInspectionPayload } from './collectors/payload.js';
import { linuxHardwareManager } from './hardware/linux.js';
import type { HardwareManager } from './hardware/manager.js';
import { assertHardwareProfile, simulatedHardwareManager } from './hardware/simulated.js';
import { postInspection } from './inspect.js';
import { type AgentSystem, hostSystem } from './system.js';
import { type DeployHost, linuxDeployHost, parseSimulatedDisks, simulatedDeployHost } from './deploy-host.js';
import { startDeployAgent } from './deploy-agent.js';

/** What the agent gets from its surroundings (all injectable for tests). */
export interface AgentEnv {
  /** The kernel command line (text of /proc/cmdline); '' when there is none. */
  cmdline: string;
  /** The machine to inspect (default: this host). */
  system?: AgentSystem;
  /** Output for results (default: process.stdout). */
  stdout?: (text: string) => void;
  /** Output for progress and problems (default: process.stderr). */
  stderr?: (text: string) => void;
  signal?: AbortSignal;
  /** Retry pacing of the callback post (tests shorten it). */
  retry?: { initialDelayMs?: number; maxDelayMs?: number };
}

interface ChosenManager {
  manager: HardwareManager;
  /** The simulated machine's profile (simulated manager only). */
  profile: HardwareProfile | null;
}

async function chooseManager(config: AgentConfig, system: AgentSystem): Promise<ChosenManager> {
  if (config.hardwareManager === 'linux') return { manager: linuxHardwareManager(system, { bootMac: config.bootMac, collectLldp: config.collectLldp }), profile: null };
  if (!config.simulatedProfile) {
    throw fail('simulatedProfileMissing');
  }
  let profile: unknown;
  try {
    profile = JSON.parse(await readFile(config.simulatedProfile, 'utf8'));
    assertHardwareProfile(profile);
  } catch (err) {
    throw fail('simulatedProfileInvalid', { file: config.simulatedProfile, reason: messageOf(err) });
  }
  return { manager: simulatedHardwareManager(profile, { bootMac: config.bootMac, bmcAddress: config.simulatedBmcAddress }), profile };
}

/** Serves the deploy API (after a lookup unless standalone) until a command ends the agent. */
async function runDeploy(config: AgentConfig, chosen: ChosenManager, system: AgentSystem, interfaces: readonly InventoryInterface[], nodeUuid: string | null, env: AgentEnv, log: (m: string) => void): Promise<number> {
  let host: DeployHost;
  try {
    host = chosen.profile ? simulatedDeployHost(chosen.profile, { diskFiles: parseSimulatedDisks(config.simulatedDisks, chosen.profile) }) : linuxDeployHost(system, chosen.manager);
  } catch (e) {
    log(messageOf(e));
    return 2;
  }
  try {
    const agent = await startDeployAgent({
      apiUrl: config.standalone ? null : config.apiUrl,
      host,
      system,
      addresses: interfaces.map((i) => i.mac_address).filter((m) => m),
      nodeUuid,
      listenHost: config.listenHost,
      listenPort: config.listenPort,
      advertiseHost: config.advertiseHost,
      advertisePort: config.advertisePort,
      agentToken: config.agentToken,
      lookupTimeoutMs: config.lookupTimeoutS * 1000,
      lookupIntervalMs: config.lookupIntervalS * 1000,
      download: { retries: config.imageDownloadRetries, retryIntervalMs: config.imageDownloadRetryIntervalS * 1000, timeoutMs: config.imageDownloadTimeoutS * 1000 },
      insecure: config.insecure,
      log,
      signal: env.signal,
    });
    const reason = await agent.done;
    log(`deploy agent finished: ${reason}`);
    return 0;
  } catch (e) {
    if (env.signal?.aborted) return 0;
    log(messageOf(e));
    return 1;
  }
}

/**
 * Runs the agent with `args` (the flags after `ingot agent`, or process.argv without node and the
 * script) and returns the process exit code: inspection when a callback URL is configured, then the
 * deploy agent (lookup, heartbeats, command API) when `ipa-api-url` is set or in standalone mode.
 * Never throws.
 */
export async function runAgent(args: string[], env: AgentEnv): Promise<number> {
  const out = env.stdout ?? ((t: string) => void process.stdout.write(t));
  const err = env.stderr ?? ((t: string) => void process.stderr.write(t));
  const log = (msg: string) => err(`ingot-agent: ${msg}\n`);
  let config: AgentConfig;
  try {
    config = loadAgentConfig(env.cmdline, args);
  } catch (e) {
    log(messageOf(e));
    return 2;
  }
  if (config.help) {
    out(`${agentUsage()}\n`);
    return 0;
  }
  for (const [key, value] of Object.entries(config.unknown)) log(`ignoring unknown parameter ${key}${value === '' ? '' : `=${value}`}`);
  const deploying = !config.printPayload && (config.apiUrl !== null || config.standalone);
  if (!config.printPayload && !config.inspectionCallbackUrl && !deploying) {
    log('neither ipa-inspection-callback-url nor ipa-api-url (kernel parameters or --inspection-callback-url / --api-url): nothing to do; --print-payload prints the inspection data instead');
    return 2;
  }
  const system = env.system ?? hostSystem();
  let chosen: ChosenManager;
  try {
    chosen = await chooseManager(config, system);
  } catch (e) {
    log(messageOf(e));
    return 2;
  }
  const { manager } = chosen;
  let nodeUuid: string | null = null;
  let inventory: Inventory | null = null;
  if (config.printPayload || config.inspectionCallbackUrl) {
    const started = Date.now();
    const { payload, problems } = await buildInspectionPayload(config, manager, system);
    inventory = payload.inventory;
    for (const p of problems) log(`problem: ${p}`);
    for (const [name, e] of Object.entries(payload.collector_errors ?? {})) log(`collector ${name} failed: ${e}`);
    if (config.debug) log(`collected in ${Date.now() - started} ms with ${manager.name}`);
    if (config.printPayload) {
      out(`${JSON.stringify(payload, null, 2)}\n`);
      return 0;
    }
    const url = config.inspectionCallbackUrl as string;
    try {
      const answer = await postInspection(url, payload, {
        totalTimeoutMs: config.globalRequestTimeoutS * 1000,
        insecure: config.insecure,
        signal: env.signal,
        ...env.retry,
        onRetry: (attempt, reason, delay) => log(`posting to ${url} failed (attempt ${attempt}: ${reason}); retrying in ${(delay / 1000).toFixed(1)} s`),
      });
      log(`inspection data posted to ${url}: HTTP ${answer.status} after ${answer.attempts} attempt(s)`);
      out(`${JSON.stringify(answer.body)}\n`);
      const uuid = (answer.body as { uuid?: unknown } | null)?.uuid;
      if (typeof uuid === 'string') nodeUuid = uuid;
    } catch (e) {
      log(messageOf(e));
      // As IPA: a failed inspection does not stop the lookup.
      if (!deploying) return 1;
    }
  }
  if (!deploying) return 0;
  // The lookup needs the MACs only: without an inspection first, read the network interfaces, not the
  // whole inventory (disks, memory, BMC: most of a second in an emulated ramdisk).
  const interfaces = inventory?.interfaces ?? (await manager.listInterfaces());
  return runDeploy(config, chosen, system, interfaces, nodeUuid, env, log);
}
