/**
 * `ingot serve --demo N [--demo-run]`: Ingot on its embedded default with N simulated machines behind
 * emulated BMCs (half Redfish, half IPMI), enrolled through the public API with their ports and ready
 * (`available`). With `--demo-run` it also inspects and deploys them, printing live progress and, at the
 * end, how long each phase took (from the node histories).
 *
 * The machines are simulated: they network-boot as iPXE would — fetch their per-MAC script, the deploy
 * kernel and ramdisk from Ingot's HTTP boot server — then run the Ingot agent in this process, writing
 * the image into sparse disk files. Everything else is the real path: API, conductor, BMC protocols,
 * boot files, agent protocol, image download and checksum, config drive.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { IngotConfig } from '../config/ingot-config.js';
import { driverInfoFor } from '../bmc/inventory.js';
import { startFleet, type Fleet } from '../bmc/fleet.js';
import type { MachineSpec } from '../bmc/fleet-spec.js';
import { fail, messageOf } from '../shared/errors.js';
import type { Logger } from '../shared/logger.js';

const MIB = 1024 * 1024;
const SETTLED = new Set(['available', 'active', 'manageable', 'enroll', 'deploy failed', 'clean failed', 'inspect failed']);

/** What the demo needs of the running server. */
export interface DemoServer {
  url: string;
  boot: { httpUrl: string; httpRoot: string };
}

export interface DemoOptions {
  count: number;
  /** Also inspect and deploy. */
  run: boolean;
  /** With `run`: inspect before deploying (default true). */
  inspect?: boolean;
  /** Size of the demo image in MiB (default 16). */
  imageMib?: number;
  /** Where the machines' disk files go. */
  diskDir: string;
  out: (line: string) => void;
  logger: Logger;
  signal?: AbortSignal;
}

/** One phase of a run: its wall time and the slowest node. */
export interface PhaseTiming {
  phase: string;
  seconds: number;
  failed: number;
}

/** What a demo run measured. */
export interface DemoReport {
  phases: PhaseTiming[];
  /** Time spent in each provision state (and deploy/clean step), median and max over the nodes, in seconds. */
  states: { name: string; median: number; max: number; count: number }[];
  failures: string[];
}

export interface Demo {
  fleet: Fleet;
  /** Resolves when the machines are enrolled and ready (and, with `run`, inspected and deployed). */
  done: Promise<DemoReport>;
  close(): Promise<void>;
}

/** The config changes the demo needs: loopback API and HTTP boot server, network boot over HTTP, quick heartbeats. */
export function demoConfig(config: IngotConfig, machines = 0): IngotConfig {
  const loopback = (host: string) => (['0.0.0.0', '::'].includes(host) ? '127.0.0.1' : host);
  return {
    ...config,
    api: { ...config.api, host: loopback(config.api.host) },
    boot: { ...config.boot, http_enabled: true, http_host: loopback(config.boot.http_host), http_port: config.boot.http_port === 8088 ? 0 : config.boot.http_port, tftp_server: config.boot.tftp_server || '127.0.0.1' },
    conductor: { ...config.conductor, agent_heartbeat_timeout_s: Math.min(config.conductor.agent_heartbeat_timeout_s, 10), workers: Math.max(config.conductor.workers, machines + 20) },
  };
}

interface NodeView {
  uuid: string;
  name: string;
  provision_state: string;
  reservation: string | null;
  last_error: string | null;
}

class DemoApi {
  constructor(private readonly base: string, private readonly signal?: AbortSignal) {}

  async call<T>(method: string, url: string, body?: unknown): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${this.base}${url}`, {
        method,
        headers: { 'content-type': 'application/json', 'x-openstack-ironic-api-version': 'latest' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        ...(this.signal ? { signal: this.signal } : {}),
      });
      const text = await res.text();
      // 503: every conductor worker is busy; 409: the node is locked for a moment. Both pass.
      if ((res.status === 503 || res.status === 409) && attempt < 100) {
        await new Promise((r) => setTimeout(r, 200));
        continue;
      }
      if (!res.ok) throw new Error(`${method} ${url}: HTTP ${res.status} ${text}`);
      return (text ? JSON.parse(text) : null) as T;
    }
  }

  async nodes(): Promise<NodeView[]> {
    return (await this.call<{ nodes: NodeView[] }>('GET', '/v1/nodes?fields=uuid,name,provision_state,reservation,last_error&limit=10000')).nodes;
  }
}

async function each<T>(items: readonly T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) await fn(items[next++] as T);
  }));
}

/** A raw disk image: an MBR with one Linux partition, random data in its first half. */
function demoImage(mib: number): Buffer {
  const bytes = Buffer.alloc(mib * MIB);
  bytes[446 + 4] = 0x83;
  bytes.writeUInt32LE(2048, 446 + 8);
  bytes.writeUInt32LE((mib * MIB) / 512 - 2048, 446 + 12);
  bytes[510] = 0x55;
  bytes[511] = 0xaa;
  randomBytes(Math.max(0, Math.floor((mib * MIB) / 2) - MIB)).copy(bytes, MIB);
  return bytes;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length === 0 ? 0 : (s[Math.floor((s.length - 1) / 2)] as number);
}

/** Starts the fleet, enrolls it and (with `run`) inspects and deploys it; see module doc. */
export async function startDemo(server: DemoServer, opts: DemoOptions): Promise<Demo> {
  if (!server.boot.httpUrl) throw fail('demoNeedsHttpBoot');
  const api = new DemoApi(server.url, opts.signal);
  if ((await api.nodes()).length > 0) {
    throw fail('demoNeedsEmptyDataDir');
  }
  const files = path.join(server.boot.httpRoot, 'demo');
  await mkdir(files, { recursive: true });
  const note = Buffer.from('Ingot demo: simulated machines fetch this file as their deploy kernel/ramdisk and run the agent in-process.\n');
  await writeFile(path.join(files, 'deploy.kernel'), note);
  await writeFile(path.join(files, 'deploy.initramfs'), note);
  const image = demoImage(opts.imageMib ?? 16);
  await writeFile(path.join(files, 'image.raw'), image);
  const sha256 = createHash('sha256').update(image).digest('hex');
  const base = server.boot.httpUrl.replace(/\/+$/, '');

  const specs: MachineSpec[] = Array.from({ length: opts.count }, (_, i) => ({ name: `demo-${String(i).padStart(3, '0')}`, backend: 'simulated' }) as MachineSpec);
  const fleet = await startFleet({
    machines: specs, host: '127.0.0.1', redfishPort: 0, ipmiPortBase: 0, username: 'admin', password: 'password',
    diskDir: opts.diskDir, ingotUrl: server.url, bootUrl: base, logger: opts.logger,
  });
  opts.out(`demo: ${opts.count} simulated machines, Redfish at ${fleet.redfishUrl}, IPMI on 127.0.0.1; disks in ${opts.diskDir}`);

  const done = (async (): Promise<DemoReport> => {
    const report: DemoReport = { phases: [], states: [], failures: [] };
    const uuids: string[] = [];
    await each(fleet.inventory.map((entry, i) => ({ entry, i })), 16, async ({ entry, i }) => {
      const driver = i % 2 === 0 ? 'redfish' : 'ipmi';
      const node = await api.call<NodeView>('POST', '/v1/nodes', {
        name: entry.name, driver, driver_info: { ...driverInfoFor(entry, driver), deploy_kernel: `${base}/demo/deploy.kernel`, deploy_ramdisk: `${base}/demo/deploy.initramfs` },
        inspect_interface: 'agent',
      });
      uuids.push(node.uuid);
      const machine = fleet.machines.find((m) => m.name === entry.name);
      for (const nic of machine?.profile.nics ?? []) await api.call('POST', '/v1/ports', { node_uuid: node.uuid, address: nic.mac, pxe_enabled: nic.pxe_enabled });
    });
    opts.out(`demo: enrolled ${uuids.length} nodes (half redfish, half ipmi) with their ports`);

    const phase = async (name: string, verb: string, goal: string, body: Record<string, unknown> = {}) => {
      const started = Date.now();
      await each(uuids, 16, async (uuid) => {
        await api.call('PUT', `/v1/nodes/${uuid}/states/provision`, { target: verb, ...body });
      });
      let last = '';
      for (;;) {
        const nodes = await api.nodes();
        const counts = new Map<string, number>();
        for (const n of nodes) counts.set(n.provision_state, (counts.get(n.provision_state) ?? 0) + 1);
        const line = [...counts].sort((a, b) => b[1] - a[1]).map(([s, c]) => `${c} ${s}`).join(', ');
        const settled = nodes.every((n) => n.reservation === null && SETTLED.has(n.provision_state) && n.provision_state !== 'enroll');
        if (line !== last || settled) {
          opts.out(`demo: ${name.padEnd(8)} ${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s  ${line}`);
          last = line;
        }
        if (settled) {
          const failed = nodes.filter((n) => n.provision_state !== goal);
          for (const n of failed) report.failures.push(`${n.name}: ${n.provision_state}: ${n.last_error ?? ''}`);
          report.phases.push({ phase: name, seconds: (Date.now() - started) / 1000, failed: failed.length });
          return;
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
    };
    await phase('manage', 'manage', 'manageable');
    if (opts.run && opts.inspect !== false) await phase('inspect', 'inspect', 'manageable');
    await phase('provide', 'provide', 'available');
    if (opts.run) {
      await each(uuids, 16, async (uuid) => {
        await api.call('PATCH', `/v1/nodes/${uuid}`, [
          { op: 'add', path: '/instance_info/image_source', value: `${base}/demo/image.raw` },
          { op: 'add', path: '/instance_info/image_os_hash_algo', value: 'sha256' },
          { op: 'add', path: '/instance_info/image_os_hash_value', value: sha256 },
        ]);
      });
      await phase('deploy', 'active', 'active', { configdrive: { meta_data: { project: 'ingot-demo' }, user_data: '#cloud-config\n' } });
    }
    report.states = await stateTimings(api, uuids);
    return report;
  })();

  return {
    fleet,
    done,
    async close() {
      await done.catch(() => undefined);
      await fleet.close();
    },
  };
}

/** Median and max time per provision state and per step, from the node histories. */
async function stateTimings(api: DemoApi, uuids: readonly string[]): Promise<DemoReport['states']> {
  const by = new Map<string, number[]>();
  await each(uuids, 16, async (uuid) => {
    const { history } = await api.call<{ history: { event: string; duration?: number | null }[] }>('GET', `/v1/nodes/${uuid}/history?detail=true`);
    for (const h of history) {
      if (typeof h.duration !== 'number') continue;
      const transition = /^(.+?) -> /.exec(h.event);
      const step = /^(?:deploy|clean) step (\S+) done$/.exec(h.event);
      const name = transition ? `state ${transition[1]}` : step ? `step ${step[1]}` : null;
      if (!name) continue;
      by.set(name, [...(by.get(name) ?? []), h.duration]);
    }
  });
  return [...by].map(([name, v]) => ({ name, median: median(v), max: Math.max(...v), count: v.length })).sort((a, b) => b.max - a.max);
}

/** The report as lines for the terminal. */
export function formatReport(report: DemoReport): string[] {
  const lines = ['demo: phase timings (wall clock, all machines at once):'];
  for (const p of report.phases) lines.push(`  ${p.phase.padEnd(10)} ${p.seconds.toFixed(1).padStart(7)} s${p.failed ? `  (${p.failed} failed)` : ''}`);
  lines.push('demo: time per node in each state and step (median / max):');
  for (const s of report.states) lines.push(`  ${s.name.padEnd(40)} ${s.median.toFixed(2).padStart(7)} s / ${s.max.toFixed(2).padStart(7)} s  (${s.count})`);
  for (const f of report.failures.slice(0, 20)) lines.push(`demo: FAILED ${f}`);
  return lines;
}

/** Logs a demo failure the way the CLI shows it. */
export function demoError(err: unknown): string {
  return `demo: ${messageOf(err)}`;
}
