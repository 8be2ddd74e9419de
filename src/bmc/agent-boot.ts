/**
 * What a simulated machine runs when it boots from the network, as a real machine does with Ingot's
 * agent ramdisk:
 *
 * - With Ingot's HTTP boot server (`bootUrl`, `ingot bmc --boot-url`): like iPXE, it fetches the per-MAC
 *   script `<bootUrl>/pxelinux.cfg/<aa-bb-cc-dd-ee-ff>` of its PXE NIC, then the kernel and initrd the
 *   script names, and starts the agent its kernel parameters ask for: `ipa-inspection-callback-url` →
 *   the inventory is posted there; `ipa-api-url` → the deploy agent (lookup, heartbeats, command API
 *   writing images to the machine's disk file) runs against that API. Both → inspection first, then the
 *   deploy agent, as ironic-python-agent does. No script, or an image that does not load, boots nothing.
 * - Without it (`ingotUrl` only, `ingot bmc --ingot-url`): the inventory goes to
 *   `<ingotUrl>/v1/continue_inspection`, then the deploy agent runs against `ingotUrl`.
 *
 * The agent of a boot lives until the machine boots again (reset, cycle, power on) or powers off; its
 * `standby.power_off` powers the machine off and `standby.run_image` resets it. A boot from disk runs no
 * agent. Faults: `agent_error` (the inspection reports a ramdisk error), `agent_missing` (no agent
 * starts), `agent_stall` (the deploy agent dies {@link AGENT_STALL_AFTER_MS} after its first heartbeat).
 */
import type { Logger } from '../shared/logger.js';
import { messageOf } from '../shared/errors.js';
import { parseKernelCmdline } from '../agent/config.js';
import { httpStream } from '../agent/http-client.js';
import type { DeployAgent } from '../agent/deploy-agent.js';
import { postSimulatedInspection, startSimulatedDeployAgent } from '../agent/simulation.js';
import { type IpxeBoot, parseIpxeScript } from './ipxe-script-parse.js';
import type { Machine } from './machine.js';

export interface AgentBootOptions {
  /**
   * Base URL of Ingot's API, e.g. `http://127.0.0.1:6385`: where agents report when there is no
   * `bootUrl` (with one, the kernel parameters of the boot script say where).
   */
  ingotUrl?: string;
  /**
   * Base URL of Ingot's HTTP boot server, e.g. `http://127.0.0.1:8088`: network boots fetch their iPXE
   * script and images there and run the agent the script's kernel parameters ask for.
   */
  bootUrl?: string;
  /** The BMC address each machine's agent reports (its IPMI address). */
  bmcAddressOf(machine: Machine): string | null;
  /** The machine's disk files, by disk name (`/dev/sda` → file), for the deploy agent; none: no disk can be written. */
  disksOf?(machine: Machine): Record<string, string>;
  logger?: Logger;
  /** Stops every agent (fleet shutdown). */
  signal?: AbortSignal;
}

/** With the `agent_stall` fault, the deploy agent dies this long after its first successful heartbeat. */
export const AGENT_STALL_AFTER_MS = 2000;
/** No data for this long fails a download of the boot script or an image. */
const DOWNLOAD_IDLE_TIMEOUT_MS = 30_000;
/** Boot scripts are small; a larger answer is not one. */
const MAX_SCRIPT_BYTES = 1024 * 1024;

/** Which agent parts a boot starts, and against what. */
interface AgentPlan {
  inspectionUrl: string | null;
  apiUrl: string | null;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** GETs `url` and reads the whole body (keeping at most `keep` bytes of it). */
async function download(url: string, signal: AbortSignal, keep: number): Promise<{ status: number; bytes: number; body: Buffer }> {
  const res = await httpStream(url, { timeoutMs: DOWNLOAD_IDLE_TIMEOUT_MS, signal });
  let bytes = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of res as AsyncIterable<Buffer>) {
    if (bytes < keep) chunks.push(chunk.subarray(0, keep - bytes));
    bytes += chunk.length;
  }
  return { status: res.statusCode ?? 0, bytes, body: Buffer.concat(chunks) };
}

/**
 * The machine's firmware and iPXE: fetch the per-MAC script, then its images; the kernel parameters
 * decide the agent. Null (with a warning naming the machine and the URL) when nothing boots.
 */
async function networkBoot(m: Machine, bootUrl: string, signal: AbortSignal, logger: Logger | undefined): Promise<AgentPlan | null> {
  const nic = m.profile.nics.find((n) => n.pxe_enabled) ?? m.profile.nics[0];
  if (!nic) {
    logger?.warn({ machine: m.name }, `${m.name}: no NIC to boot from the network; it boots nothing`);
    return null;
  }
  const scriptUrl = `${trimSlash(bootUrl)}/pxelinux.cfg/${nic.mac.toLowerCase().replace(/:/g, '-')}`;
  // NOTE: iPXE retries `kernel … || goto deploy` for as long as the download fails; a simulated machine
  // gives up at the first failure instead, so a missing or broken boot configuration shows at once.
  const failed = (url: string, why: string): null => {
    if (!signal.aborted) logger?.warn({ machine: m.name, url }, `${m.name}: network boot from ${url} failed: ${why}; it boots nothing`);
    return null;
  };
  let script: string;
  try {
    const answer = await download(scriptUrl, signal, MAX_SCRIPT_BYTES);
    if (answer.status !== 200) return failed(scriptUrl, `HTTP ${answer.status}`);
    script = answer.body.toString('utf8');
  } catch (err) {
    return failed(scriptUrl, messageOf(err));
  }
  let boot: IpxeBoot;
  try {
    boot = parseIpxeScript(script, scriptUrl);
  } catch (err) {
    return failed(scriptUrl, messageOf(err));
  }
  for (const url of [boot.kernel, ...boot.initrds]) {
    try {
      const answer = await download(url, signal, 0);
      if (answer.status !== 200) return failed(url, `HTTP ${answer.status}`);
      logger?.debug({ machine: m.name, url, bytes: answer.bytes }, `${m.name}: loaded ${url} (${answer.bytes} bytes)`);
    } catch (err) {
      return failed(url, messageOf(err));
    }
  }
  const params = parseKernelCmdline(boot.params);
  const plan: AgentPlan = { inspectionUrl: params.get('ipa-inspection-callback-url') || null, apiUrl: params.get('ipa-api-url') || null };
  if (!plan.inspectionUrl && !plan.apiUrl) {
    logger?.warn({ machine: m.name, url: scriptUrl }, `${m.name}: the kernel parameters of ${scriptUrl} start no agent (neither ipa-inspection-callback-url nor ipa-api-url)`);
    return null;
  }
  return plan;
}

/** One network boot of `m`: the agent of that boot, until `signal` aborts (next boot, power off, shutdown). */
async function runBoot(m: Machine, opts: AgentBootOptions, signal: AbortSignal): Promise<void> {
  const logger = opts.logger;
  let plan: AgentPlan | null;
  if (opts.bootUrl) plan = await networkBoot(m, opts.bootUrl, signal, logger);
  else if (opts.ingotUrl) plan = { inspectionUrl: `${trimSlash(opts.ingotUrl)}/v1/continue_inspection`, apiUrl: trimSlash(opts.ingotUrl) };
  else plan = null;
  if (!plan || signal.aborted) return;
  if (m.faults.agent_missing) {
    logger?.info({ machine: m.name }, `${m.name}: no agent starts (agent_missing fault)`);
    return;
  }

  let nodeUuid: string | null = null;
  if (plan.inspectionUrl) {
    try {
      const answer = await postSimulatedInspection({ profile: m.profile, callbackUrl: plan.inspectionUrl, bmcAddress: opts.bmcAddressOf(m), error: m.faults.agent_error, signal });
      nodeUuid = answer.nodeUuid;
      logger?.info({ machine: m.name, status: answer.status }, `${m.name}: agent posted its inventory (HTTP ${answer.status})`);
    } catch (err) {
      if (signal.aborted) return;
      // As ironic-python-agent: a failed inspection does not stop the deploy agent.
      logger?.warn({ machine: m.name }, `${m.name}: agent could not post its inventory: ${messageOf(err)}`);
    }
  }
  if (!plan.apiUrl || signal.aborted) return;

  const stall = new AbortController();
  let stallTimer: NodeJS.Timeout | undefined;
  const agentSignal = AbortSignal.any([signal, stall.signal]);
  agentSignal.addEventListener('abort', () => clearTimeout(stallTimer), { once: true });
  const stalls = m.faults.agent_stall;
  let agent: DeployAgent;
  try {
    agent = await startSimulatedDeployAgent({
      profile: m.profile,
      apiUrl: plan.apiUrl,
      disks: opts.disksOf?.(m) ?? {},
      nodeUuid,
      lookupIntervalMs: 200,
      lookupMaxIntervalMs: 2000,
      // A simulated command ends in moments; the heartbeat that reports it need not wait IPA's 5 s.
      heartbeatMinIntervalMs: 1000,
      onPowerOff: () => m.act('off'),
      onReboot: () => m.act('reset'),
      onHeartbeat: (ok) => {
        if (!ok || !stalls || stallTimer !== undefined || agentSignal.aborted) return;
        stallTimer = setTimeout(() => {
          logger?.info({ machine: m.name }, `${m.name}: the agent dies (agent_stall fault)`);
          stall.abort(new Error('agent_stall'));
        }, AGENT_STALL_AFTER_MS);
      },
      log: (message) => logger?.debug({ machine: m.name }, `${m.name} agent: ${message}`),
      signal: agentSignal,
    });
  } catch (err) {
    if (!agentSignal.aborted) logger?.warn({ machine: m.name, url: plan.apiUrl }, `${m.name}: the deploy agent gave up: ${messageOf(err)}`);
    return;
  }
  logger?.info({ machine: m.name, node: agent.nodeUuid, callback_url: agent.callbackUrl }, `${m.name}: deploy agent of node ${agent.nodeUuid} listens at ${agent.callbackUrl}`);
  // Stopped before it could hear of it (the abort fell while its API was starting).
  if (agentSignal.aborted) await agent.stop();
  const reason = await agent.done;
  logger?.info({ machine: m.name, reason }, `${m.name}: deploy agent stopped (${reason})`);
}

/**
 * Makes every simulated machine of `machines` run the agent at each network boot (see the module
 * comment). Returns a detach function: it stops listening, stops every agent and resolves once they
 * are down.
 */
export function attachSimulatedAgents(machines: readonly Machine[], opts: AgentBootOptions): () => Promise<void> {
  const running = new Set<Promise<void>>();
  const sessions = new Map<Machine, AbortController>();
  const end = (m: Machine) => {
    sessions.get(m)?.abort(new Error(`${m.name} booted again or powered off`));
    sessions.delete(m);
  };
  const detach = machines
    .filter((m) => m.backend === 'simulated')
    .flatMap((m) => [
      m.onBoot(({ device }) => {
        end(m);
        if (device !== 'pxe' || opts.signal?.aborted) return;
        const session = new AbortController();
        sessions.set(m, session);
        const task = runBoot(m, opts, opts.signal ? AbortSignal.any([opts.signal, session.signal]) : session.signal).catch((err: unknown) => {
          opts.logger?.warn({ machine: m.name }, `${m.name}: agent failed: ${messageOf(err)}`);
        });
        running.add(task);
        void task.finally(() => running.delete(task));
      }),
      m.onPowerOff(() => end(m)),
    ]);
  return async () => {
    for (const d of detach) d();
    for (const m of [...sessions.keys()]) end(m);
    await Promise.allSettled([...running]);
  };
}
