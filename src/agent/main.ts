/**
 * The agent's inspection flow: configuration → inventory → collectors → POST to the callback. Used by
 * `ingot agent` and by the bundled ramdisk entry (main-entry.ts). Exit codes: 0 done, 1 inspection
 * failed (the callback could not be reached or refused the data), 2 bad configuration.
 */
import { readFile } from 'node:fs/promises';
import { IngotError, messageOf } from '../shared/errors.js';
import { type AgentConfig, agentUsage, loadAgentConfig } from './config.js';
import { buildInspectionPayload } from './collectors/payload.js';
import { linuxHardwareManager } from './hardware/linux.js';
import type { HardwareManager } from './hardware/manager.js';
import { assertHardwareProfile, simulatedHardwareManager } from './hardware/simulated.js';
import { postInspection } from './inspect.js';
import { type AgentSystem, hostSystem } from './system.js';

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

async function chooseManager(config: AgentConfig, system: AgentSystem): Promise<HardwareManager> {
  if (config.hardwareManager === 'linux') return linuxHardwareManager(system, { bootMac: config.bootMac, collectLldp: config.collectLldp });
  if (!config.simulatedProfile) {
    throw new IngotError('MissingParameterValue', 'ipa-simulated-profile: the simulated hardware manager needs a JSON hardware profile file.');
  }
  let profile: unknown;
  try {
    profile = JSON.parse(await readFile(config.simulatedProfile, 'utf8'));
    assertHardwareProfile(profile);
  } catch (err) {
    throw new IngotError('InvalidParameterValue', `ipa-simulated-profile: ${config.simulatedProfile}: ${messageOf(err)}`);
  }
  return simulatedHardwareManager(profile, { bootMac: config.bootMac, bmcAddress: config.simulatedBmcAddress });
}

/**
 * Runs the inspection flow with `args` (the flags after `ingot agent`, or process.argv without node
 * and the script) and returns the process exit code. Never throws.
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
  if (!config.printPayload && !config.inspectionCallbackUrl) {
    log('no ipa-inspection-callback-url (kernel parameter or --inspection-callback-url): nothing to post; --print-payload prints the data instead');
    return 2;
  }
  const system = env.system ?? hostSystem();
  let manager: HardwareManager;
  try {
    manager = await chooseManager(config, system);
  } catch (e) {
    log(messageOf(e));
    return 2;
  }
  const started = Date.now();
  const { payload, problems } = await buildInspectionPayload(config, manager, system);
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
    return 0;
  } catch (e) {
    log(messageOf(e));
    return 1;
  }
}
