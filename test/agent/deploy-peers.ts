// Peers of the deploy agent in tests: a fake conductor answering lookup and heartbeats over real HTTP,
// an image server, and a small client of the agent's command API. Everything listens on 127.0.0.1.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { AgentCommandResult } from '../../src/protocol/agent/commands.js';
import type { HeartbeatRequest } from '../../src/protocol/agent/lookup.js';
import type { HardwareProfile } from '../../src/protocol/hardware/profile.js';
import { listenHttp, readText, sendJson, type Served } from '../support/http-server.js';

export const run = promisify(execFile);

/** A small simulated machine: an 8 GiB root disk and a 96 MiB second disk, two NICs. */
export const PROFILE: HardwareProfile = {
  manufacturer: 'Ingot Simulated',
  model: 'Sim 1U',
  serial_number: 'SIM000042',
  system_uuid: '00000000-0000-4000-8000-000000000042',
  cpu: { count: 2, model_name: 'Sim CPU', frequency_mhz: 2400, architecture: 'x86_64', flags: [] },
  memory_mib: 2048,
  disks: [
    { name: '/dev/sda', size_bytes: 8 * 2 ** 30, model: 'SIM SSD', vendor: 'INGOT', serial: 'D0', rotational: false, wwn: null },
    { name: '/dev/sdb', size_bytes: 96 * 2 ** 20, model: 'SIM SMALL', vendor: 'INGOT', serial: 'D1', rotational: true, wwn: null },
  ],
  nics: [
    { name: 'eth0', mac: '52:54:00:aa:00:01', speed_mbps: 10000, pxe_enabled: true },
    { name: 'eth1', mac: '52:54:00:aa:00:02', speed_mbps: 10000, pxe_enabled: false },
  ],
  boot_mode: 'uefi',
};


/** A heartbeat as the fake conductor received it. */
export interface SeenHeartbeat {
  node: string;
  body: HeartbeatRequest;
  version: string | undefined;
}

/** Options of {@link fakeConductor}. */
export interface FakeConductorOptions {
  nodeUuid: string;
  token: string;
  /** MACs the node has; a lookup must name one of them. */
  macs: string[];
  heartbeatTimeoutS?: number;
  /** Lookups answered 404 before the node is found (the conductor is not ready yet). */
  notReadyLookups?: number;
  /** Lookups answered 409 before the node is found. */
  lockedLookups?: number;
  properties?: Record<string, unknown>;
  instanceInfo?: Record<string, unknown>;
}

/** A fake Ironic API: `GET /`, `GET /v1/lookup`, `POST /v1/heartbeat/{node}`. */
export async function fakeConductor(opts: FakeConductorOptions): Promise<Served & { heartbeats: SeenHeartbeat[]; lookups: string[]; rejected: number }> {
  const heartbeats: SeenHeartbeat[] = [];
  const lookups: string[] = [];
  let handedOut = false;
  const state = { rejected: 0 };
  const served = await listenHttp(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const json = (status: number, doc?: unknown) => sendJson(res, status, doc);
    if (req.method === 'GET' && url.pathname === '/') return json(200, { default_version: { id: 'v1', version: '1.95', min_version: '1.1' } });
    if (req.method === 'GET' && url.pathname === '/v1/lookup') {
      lookups.push(url.search);
      if (lookups.length <= (opts.notReadyLookups ?? 0)) return json(404, { error_message: JSON.stringify({ faultstring: 'Node not found' }) });
      if (lookups.length <= (opts.notReadyLookups ?? 0) + (opts.lockedLookups ?? 0)) return json(409, { error_message: JSON.stringify({ faultstring: 'Node is locked' }) });
      const addresses = (url.searchParams.get('addresses') ?? '').split(',');
      if (!addresses.some((a) => opts.macs.includes(a))) return json(404, { error_message: JSON.stringify({ faultstring: 'no such MAC' }) });
      const token = handedOut ? '******' : opts.token;
      handedOut = true;
      return json(200, {
        node: { uuid: opts.nodeUuid, properties: opts.properties ?? {}, instance_info: opts.instanceInfo ?? {}, driver_internal_info: {} },
        config: { heartbeat_timeout: opts.heartbeatTimeoutS ?? 300, agent_token: token, agent_token_required: true, agent_md5_checksum_enable: false },
      });
    }
    const hb = /^\/v1\/heartbeat\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'POST' && hb) {
      const doc = JSON.parse(await readText(req)) as HeartbeatRequest;
      if (doc.agent_token !== opts.token) {
        state.rejected++;
        return json(401, { error_message: JSON.stringify({ faultstring: 'Invalid or missing agent token received.' }) });
      }
      heartbeats.push({ node: hb[1] as string, body: doc, version: req.headers['x-openstack-ironic-api-version'] as string | undefined });
      return json(202);
    }
    json(404, { error_message: JSON.stringify({ faultstring: 'not found' }) });
  });
  return Object.assign(served, {
    heartbeats,
    lookups,
    get rejected() {
      return state.rejected;
    },
  });
}

/** One file of the image server. */
export interface ServedFile {
  data: Buffer;
  /** Send no Content-Length (chunked), so the size is only known at the end. */
  chunked?: boolean;
  /** Claim this Content-Length instead of the real one (and send nothing). */
  claimLength?: number;
  /** Answer 500 this many times first. */
  failFirst?: number;
}

/** An HTTP server for images and config drives; unknown paths answer 404. Records each request path. */
export async function imageServer(files: Record<string, ServedFile>): Promise<Served & { requests: string[] }> {
  const requests: string[] = [];
  const served = await listenHttp((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(path);
    const f = files[path];
    if (!f) return void res.writeHead(404, { 'Content-Type': 'text/plain' }).end('no such image');
    if (f.failFirst && f.failFirst > 0) {
      f.failFirst--;
      return void res.writeHead(500).end('try again');
    }
    if (f.claimLength !== undefined) return void res.writeHead(200, { 'Content-Length': f.claimLength }).end();
    if (f.chunked) {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      for (let at = 0; at < f.data.length; at += 300_000) res.write(f.data.subarray(at, at + 300_000));
      return void res.end();
    }
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': f.data.length });
    res.end(f.data);
  });
  return Object.assign(served, { requests });
}

/** Posts a command to the agent API; returns HTTP status and parsed body. */
export async function command(agentUrl: string, name: string, params: Record<string, unknown>, opts: { token?: string; wait?: boolean } = {}): Promise<{ status: number; body: AgentCommandResult & { faultstring?: string } }> {
  const q = new URLSearchParams({ wait: String(opts.wait ?? false) });
  if (opts.token) q.set('agent_token', opts.token);
  const res = await fetch(`${agentUrl}/v1/commands/?${q}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name, params }) });
  return { status: res.status, body: (await res.json()) as AgentCommandResult & { faultstring?: string } };
}

/** Polls `GET /v1/commands/{id}?wait=true`. */
export async function waitFor(agentUrl: string, id: string, token?: string): Promise<AgentCommandResult> {
  const q = new URLSearchParams({ wait: 'true' });
  if (token) q.set('agent_token', token);
  const res = await fetch(`${agentUrl}/v1/commands/${id}?${q}`);
  return (await res.json()) as AgentCommandResult;
}

/** Fails loudly when a peer tool is missing. */
export async function requireTool(tool: string, pkg: string): Promise<void> {
  try {
    await run('sh', ['-c', `command -v ${tool}`]);
  } catch {
    throw new Error(`${tool} is not installed: apt-get install -y ${pkg} (scripts/test-setup.sh installs it)`);
  }
}
