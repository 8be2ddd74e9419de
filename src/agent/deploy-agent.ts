/**
 * The deploy half of the agent (IPA `agent.py` `IronicPythonAgent.run`): look the node up in Ironic,
 * keep the agent token it hands out, serve the command API, and heartbeat until a command powers the
 * machine off or reboots it, or the agent is stopped. Without an API URL (standalone) it only serves the
 * API.
 */
import dgram from 'node:dgram';
import { AGENT_DEFAULT_PORT } from '../protocol/agent/commands.js';
import { HIDDEN_AGENT_TOKEN, MIN_AGENT_TOKEN_LENGTH, type LookupResponse } from '../protocol/agent/lookup.js';
import { INGOT_VERSION } from '../shared/version.js';
import { CommandRegistry } from './api/command-registry.js';
import { createAgentApi } from './api/server.js';
import type { DeployHost } from './deploy-host.js';
import type { AgentExitReason, DownloadSettings, ExtensionContext } from './extensions/context.js';
import { registerClean } from './extensions/clean.js';
import { registerDeploy } from './extensions/deploy.js';
import { registerLog } from './extensions/log.js';
import { registerStandby, type StandbyState } from './extensions/standby.js';
import { type Heartbeats, lookupNode, startHeartbeats } from './heartbeat.js';
import { IronicClient } from './ironic-client.js';
import type { AgentSystem } from './system.js';

/** The version the agent reports in heartbeats and `GET /v1/status`. */
export const AGENT_VERSION = INGOT_VERSION;

/** Options of {@link startDeployAgent}. */
export interface DeployAgentOptions {
  /** Ironic's (or Ingot's) API; null runs standalone: no lookup, no heartbeats. */
  apiUrl: string | null;
  host: DeployHost;
  system: AgentSystem;
  /** The machine's MAC addresses, for the lookup. */
  addresses: string[];
  /** The node UUID when known (the inspection callback's answer), for the lookup. */
  nodeUuid?: string | null;
  /** Address and port to serve the API on (default 0.0.0.0:9999; port 0 picks one). */
  listenHost?: string;
  listenPort?: number;
  /** Address and port the conductor is told to call (default: this machine's address towards the API, and the bound port). */
  advertiseHost?: string | null;
  advertisePort?: number | null;
  /** A token known in advance (`ipa-agent-token`, e.g. baked into a virtual media ISO). */
  agentToken?: string | null;
  /** Lookup pacing (defaults: 600 s in all, 1 s first wait). */
  lookupTimeoutMs?: number;
  lookupIntervalMs?: number;
  lookupMaxIntervalMs?: number;
  lookupConflictPausesMs?: number[];
  /** Shortest gap before a forced heartbeat (default 5 s). */
  heartbeatMinIntervalMs?: number;
  download?: Partial<DownloadSettings>;
  insecure?: boolean;
  /** Timeout of one request to the API (default 60 s). */
  requestTimeoutMs?: number;
  log?: (message: string) => void;
  /** Told after each heartbeat attempt: whether it was accepted, and why not (simulators, tests). */
  onHeartbeat?: (ok: boolean, error: string | null) => void;
  signal?: AbortSignal;
}

/** A running deploy agent. */
export interface DeployAgent {
  /** The bound API port. */
  port: number;
  /** The URL the conductor was told (`callback_url`), or the local one when standalone. */
  callbackUrl: string;
  /** The node UUID from the lookup (null when standalone). */
  nodeUuid: string | null;
  /** The lookup's answer (null when standalone). */
  lookup: LookupResponse | null;
  /** Resolves when the agent has stopped, with why. */
  done: Promise<AgentExitReason>;
  /** Stops heartbeats and the API; resolves when both are down. */
  stop(): Promise<void>;
  /** Successful heartbeats so far. */
  heartbeats(): number;
}

/** The local address this machine would use to reach `apiUrl` (a connected UDP socket sends nothing). */
export async function routeSourceAddress(apiUrl: string): Promise<string> {
  const url = new URL(apiUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const socket = dgram.createSocket(host.includes(':') ? 'udp6' : 'udp4');
  try {
    return await new Promise<string>((resolve, reject) => {
      socket.once('error', reject);
      socket.connect(Number(url.port) || (url.protocol === 'https:' ? 443 : 80), host, () => resolve(socket.address().address));
    });
  } finally {
    socket.close();
  }
}

const MAX_LOG_LINES = 5000;

/**
 * Looks the node up (when there is an API), starts the API and the heartbeats, and resolves once the
 * API listens. Throws when the lookup gives up or the port cannot be bound.
 */
export async function startDeployAgent(opts: DeployAgentOptions): Promise<DeployAgent> {
  const lines: string[] = [];
  const log = (message: string) => {
    lines.push(`${new Date().toISOString()} ${message}`);
    if (lines.length > MAX_LOG_LINES) lines.splice(0, lines.length - MAX_LOG_LINES);
    opts.log?.(message);
  };
  const stopper = new AbortController();
  const signal = opts.signal ? AbortSignal.any([opts.signal, stopper.signal]) : stopper.signal;
  const startedAt = Date.now() / 1000;
  let token = opts.agentToken ?? null;
  let node: Record<string, unknown> | null = null;
  let lookup: LookupResponse | null = null;
  const client = opts.apiUrl ? new IronicClient({ apiUrl: opts.apiUrl, insecure: opts.insecure, requestTimeoutMs: opts.requestTimeoutMs, signal }) : null;

  if (client) {
    lookup = await lookupNode(client, {
      addresses: opts.addresses,
      nodeUuid: opts.nodeUuid,
      timeoutMs: opts.lookupTimeoutMs ?? 600_000,
      intervalMs: opts.lookupIntervalMs ?? 1000,
      maxIntervalMs: opts.lookupMaxIntervalMs,
      conflictPausesMs: opts.lookupConflictPausesMs,
      signal,
      log,
    });
    node = lookup.node;
    log(`Lookup succeeded, node UUID is ${lookup.node.uuid}`);
    const given = lookup.config.agent_token;
    if (typeof given === 'string' && given.length >= MIN_AGENT_TOKEN_LENGTH) token = given;
    else if (given === HIDDEN_AGENT_TOKEN) {
      log(token ? 'The agent token was handed out before; using the one configured.' : 'The agent token was handed out before and this agent has none: the conductor will refuse its heartbeats.');
    } else if (given) log('An invalid agent token was received (too short); ignored.');
  }

  let exitReason: AgentExitReason = 'stopped';
  let resolveDone!: (r: AgentExitReason) => void;
  const done = new Promise<AgentExitReason>((resolve) => (resolveDone = resolve));
  let heartbeats: Heartbeats | null = null;
  const registry = new CommandRegistry({ onAsyncDone: () => heartbeats?.force(), log });
  const api = createAgentApi({
    registry,
    token: () => token,
    status: () => ({ started_at: startedAt, version: AGENT_VERSION }),
    host: opts.listenHost ?? '0.0.0.0',
    port: opts.listenPort ?? AGENT_DEFAULT_PORT,
    log,
  });

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      stopper.abort(new Error('agent stopped'));
      await heartbeats?.stop();
      await api.close();
      log(`agent stopped (${exitReason})`);
      resolveDone(exitReason);
    })());

  const ctx: ExtensionContext = {
    host: opts.host,
    system: opts.system,
    log,
    logText: () => `${lines.join('\n')}\n`,
    node: () => node,
    setNode: (n) => (node = n),
    download: { retries: 9, retryIntervalMs: 10_000, timeoutMs: 60_000, ...opts.download },
    insecure: opts.insecure ?? false,
    allowMd5: () => lookup?.config.agent_md5_checksum_enable !== false,
    signal,
    exit(reason) {
      exitReason = reason;
      // Let the command's result be read (Ironic may be polling) before the API goes away.
      setTimeout(() => void stop(), 200).unref();
    },
  };
  const standby: StandbyState = { partitionUuids: null, cachedImageId: null };
  registerStandby(registry, ctx, standby);
  registerDeploy(registry, ctx, standby);
  registerClean(registry, ctx);
  registerLog(registry, ctx);

  const port = await api.start();
  const wrap = (h: string) => (h.includes(':') ? `[${h}]` : h);
  const advertiseHost = opts.advertiseHost ?? (opts.apiUrl ? await routeSourceAddress(opts.apiUrl) : (opts.listenHost ?? '127.0.0.1'));
  const callbackUrl = `http://${wrap(advertiseHost)}:${opts.advertisePort ?? port}`;
  log(`API listening on ${opts.listenHost ?? '0.0.0.0'}:${port}, advertised as ${callbackUrl}`);

  if (client && lookup) {
    heartbeats = startHeartbeats(client, {
      nodeUuid: lookup.node.uuid,
      body: () => ({ callback_url: callbackUrl, agent_token: token, agent_version: AGENT_VERSION }),
      heartbeatTimeoutS: Number(lookup.config.heartbeat_timeout) || 300,
      minIntervalMs: opts.heartbeatMinIntervalMs,
      signal,
      log,
      onHeartbeat: opts.onHeartbeat,
    });
  }
  opts.signal?.addEventListener('abort', () => void stop(), { once: true });

  return {
    port,
    callbackUrl,
    nodeUuid: lookup?.node.uuid ?? null,
    lookup,
    done,
    stop,
    heartbeats: () => heartbeats?.sent() ?? 0,
  };
}
