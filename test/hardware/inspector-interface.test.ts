/**
 * The `inspector` inspect interface against the real ironic-inspector (Debian 12's python3-ironic-inspector):
 * Ingot (API + conductor, in this process, on a loopback port) delegates the inspection of a node to an
 * `ironic-inspector` child process configured without Keystone and pointed back at Ingot's API. The node
 * is inspected through Ingot's API; in `inspect wait`, Ingot's simulated agent plays the ramdisk and posts
 * its inventory to the inspector's `/v1/continue`. The inspector finds the node (by BMC address, or by the
 * MAC of an existing port), writes properties and ports through Ingot's API, and Ingot's status periodic
 * ends the inspection: manageable, or `inspect failed` with the inspector's error. An unreachable
 * inspector fails the inspection with a clear last_error. Every request the inspector sent to Ingot is
 * recorded and must have succeeded. Set INGOT_TEST_INSPECTOR_LOG=<file> to keep the inspector's log and
 * the requests Ingot served.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSimulatedInspection } from '../../src/agent/simulation.js';
import { buildApp } from '../../src/api/app.js';
import { testApiConfig } from '../../src/api/app.test-support.js';
import { simulatedProfile } from '../../src/bmc/profiles.js';
import { createConductor, type Conductor } from '../../src/conductor/conductor.js';
import { openStore } from '../../src/db/open-store.js';
import type { Store } from '../../src/db/store.js';
import { silentLogger } from '../../src/shared/logger.js';
import { api, apiOk, waitNode } from '../support/http.js';
import { boundPorts } from '../support/listening-ports.js';
import { freePort } from '../support/server.js';
import { startTcpFront, type TcpFront } from '../support/tcp-front.js';

const INSPECTOR = '/usr/bin/ironic-inspector';
const DBSYNC = '/usr/bin/ironic-inspector-dbsync';
const INSTALL_HINT = 'apt-get install -y python3-ironic-inspector';

type NodeView = Record<string, unknown> & {
  uuid: string; provision_state: string; last_error: string | null; reservation: string | null; power_state: string | null; properties: Record<string, unknown>;
};

/** Ingot in this process: store, conductor with its periodics, API on a loopback port; logs the requests it served. */
interface Ingot {
  url: string;
  store: Store;
  conductor: Conductor;
  app: FastifyInstance;
  served: string[];
  close(): Promise<void>;
}

async function startIngot(dir: string, inspectorUrl: string): Promise<Ingot> {
  const store = await openStore({ dataDir: dir });
  const conductor = createConductor({
    store, logger: silentLogger(), config: { hostname: 'inspector-itest' }, periodics: true,
    inspector: { service_url: inspectorUrl, status_check_period_s: 1 },
  });
  await conductor.start();
  const app = buildApp({ store, conductor: conductor.client, config: testApiConfig({ port: 0 }), logger: silentLogger() });
  const served: string[] = [];
  app.addHook('onResponse', async (req, reply) => {
    const body = req.method === 'GET' || req.body === undefined ? '' : ` ${JSON.stringify(req.body)}`;
    served.push(`${req.method} ${req.url} -> ${reply.statusCode} (${String(req.headers['user-agent'] ?? '')})${body}`);
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`, store, conductor, app, served,
    async close() {
      await app.close().catch(() => undefined);
      await conductor.stop({ timeoutMs: 5000 }).catch(() => undefined);
      await store.close().catch(() => undefined);
    },
  };
}

/** The real ironic-inspector as a child process; killed by PID on close. */
interface Inspector {
  url: string;
  output(): string;
  close(): Promise<void>;
}

function run(cmd: string, args: string[], timeoutMs: number): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => p.kill('SIGKILL'), timeoutMs);
    p.once('error', reject);
    p.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/** Starts the real ironic-inspector on a port it picks itself (listen_port 0), read from /proc once it listens. */
async function startInspector(dir: string, ingotUrl: string): Promise<Inspector> {
  for (const bin of [INSPECTOR, DBSYNC]) {
    if (!existsSync(bin)) throw new Error(`${bin} is missing; install Debian's ironic-inspector: ${INSTALL_HINT}`);
  }
  const conf = path.join(dir, 'inspector.conf');
  await writeFile(conf, [
    '[DEFAULT]',
    'auth_strategy = noauth',
    'listen_address = 127.0.0.1',
    'listen_port = 0',
    'host = localhost',
    // Standalone (API + conductor in one process) talks to itself over oslo.messaging's in-memory driver.
    'transport_url = fake://',
    'introspection_delay = 0',
    // Its periodic clean-up (timeouts, and a sync that lists Ingot's nodes) runs every second.
    'clean_up_period = 1',
    'debug = true',
    'use_stderr = true',
    '[ironic]',
    'auth_type = none',
    `endpoint_override = ${ingotUrl}`,
    'max_retries = 3',
    'retry_interval = 1',
    '[database]',
    `connection = sqlite:///${path.join(dir, 'inspector.sqlite')}`,
    '[pxe_filter]',
    'driver = noop',
    'sync_period = 0',
    '[processing]',
    'store_data = database',
    // NOTE: the inspector's validate_interfaces hook keeps only NICs with an IP address unless
    // add_ports = all (plugins/standard.py); the simulated agent reports no addresses, as a machine whose
    // ramdisk got no DHCP lease would.
    'add_ports = all',
    '[coordination]',
    `backend_url = file://${path.join(dir, 'locks')}`,
    '',
  ].join('\n'));
  const sync = await run(DBSYNC, ['--config-file', conf, 'upgrade'], 120_000);
  if (sync.code !== 0) throw new Error(`ironic-inspector-dbsync failed (exit ${sync.code}):\n${sync.out.slice(-4000)}`);

  const child: ChildProcess = spawn(INSPECTOR, ['--config-file', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
  const out: string[] = [];
  const keep = (d: Buffer) => {
    out.push(d.toString());
    if (out.length > 5000) out.splice(0, 2500);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // The child must never outlive the test process, even if the run is cut short.
  const onExit = () => child.kill('SIGKILL');
  process.once('exit', onExit);
  let url = '';
  const close = async () => {
    process.off('exit', onExit);
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      process.kill(child.pid, 'SIGTERM');
      // oslo.service may wait on its RPC server; do not let it outlive the test.
      const timer = setTimeout(() => {
        if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) process.kill(child.pid, 'SIGKILL');
      }, 5000);
      await exited;
      clearTimeout(timer);
    }
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`ironic-inspector exited (${child.exitCode ?? child.signalCode}) before answering:\n${out.join('').slice(-4000)}`);
    const [port] = child.pid === undefined ? [] : await boundPorts(child.pid, 'tcp');
    if (port !== undefined) {
      url = `http://127.0.0.1:${port}`;
      try {
        const res = await fetch(`${url}/`, { signal: AbortSignal.timeout(2000) });
        if (res.ok) break;
      } catch {
        // not answering yet
      }
    }
    if (Date.now() > deadline) {
      await close();
      throw new Error(`ironic-inspector did not answer${url ? ` on ${url}` : ' (no listening port yet)'} within 60 s:\n${out.join('').slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, output: () => out.join(''), close };
}

let dir: string;
let ingot: Ingot | undefined;
let inspector: Inspector | undefined;
let front: TcpFront | undefined;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ingot-inspector-itest-'));
  // Ingot must know the inspector's URL before the inspector, which needs Ingot's, starts: it gets a
  // fixed address of the test process that forwards to wherever the inspector then listens.
  front = await startTcpFront(() => (inspector as Inspector).url);
  ingot = await startIngot(dir, front.url);
  inspector = await startInspector(dir, ingot.url);
}, 180_000);

afterAll(async () => {
  if (process.env.INGOT_TEST_INSPECTOR_LOG && inspector) await writeFile(process.env.INGOT_TEST_INSPECTOR_LOG, `${inspector.output()}\n--- served by Ingot ---\n${ingot?.served.join('\n') ?? ''}\n`);
  await inspector?.close();
  await front?.close();
  await ingot?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
}, 60_000);

/** What the inspector asked of Ingot (requests carrying openstacksdk's user agent), with the answers. */
function inspectorCalls(): string[] {
  return (ingot as Ingot).served.filter((s) => /openstacksdk|keystoneauth|python-requests/i.test(s));
}

/** Enrolls a fake-hardware node with the `inspector` interface, manages it and inspects it until it waits on the inspector. */
async function inspecting(name: string, driverInfo: Record<string, unknown>, macs: string[] = []): Promise<NodeView> {
  const url = (ingot as Ingot).url;
  const node = await apiOk<NodeView>(url, 'POST', '/v1/nodes', { driver: 'fake-hardware', name, inspect_interface: 'inspector', driver_info: driverInfo });
  for (const address of macs) await apiOk(url, 'POST', '/v1/ports', { node_uuid: node.uuid, address });
  await apiOk(url, 'PUT', `/v1/nodes/${name}/states/provision`, { target: 'manage' });
  await waitNode<NodeView>(url, name, (n) => n.provision_state === 'manageable' && n.reservation === null);
  await apiOk(url, 'PUT', `/v1/nodes/${name}/states/provision`, { target: 'inspect' });
  const waiting = await waitNode<NodeView>(url, name, (n) => ['inspect wait', 'inspect failed'].includes(n.provision_state) && n.reservation === null, 60_000);
  expect(waiting.last_error, `inspection did not start; inspector log:\n${inspector?.output().slice(-3000)}`).toBeNull();
  expect(waiting.provision_state).toBe('inspect wait');
  expect(waiting.power_state).toBe('power on');
  return waiting;
}

/** The inspector's own view of the introspection. */
async function introspection(uuid: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${(inspector as Inspector).url}/v1/introspection/${uuid}`, { headers: { 'X-OpenStack-Ironic-Inspector-API-Version': '1.13' } });
  return (await res.json()) as Record<string, unknown>;
}

describe('inspector inspect interface against the real ironic-inspector', () => {
  it('inspects through the inspector: properties and ports written by it, node manageable, inventory stored', async () => {
    const url = (ingot as Ingot).url;
    const bmc = '192.0.2.10';
    const profile = simulatedProfile(0, 'itest');
    const node = await inspecting('insp-ok', { ipmi_address: bmc });
    expect(await introspection(node.uuid)).toMatchObject({ finished: false, error: null, state: 'waiting' });

    const status = await runSimulatedInspection({ profile, callbackUrl: `${(inspector as Inspector).url}/v1/continue`, bmcAddress: bmc, totalTimeoutMs: 60_000 });
    expect(status).toBe(200);

    const done = await waitNode<NodeView>(url, 'insp-ok', (n) => n.provision_state !== 'inspect wait' && n.reservation === null, 60_000);
    expect(done.last_error, `inspector log:\n${inspector?.output().slice(-4000)}`).toBeNull();
    expect(done.provision_state).toBe('manageable');
    expect(done.power_state).toBe('power off');
    // The inspector's scheduler hook: local_gb is the root disk (the smallest >= 4 GiB) in GiB, less 1 for
    // partitioning. NOTE: the legacy inspector writes these properties as strings (plugins/standard.py
    // SchedulerHook: `str(introspection_data[key])`), and Ingot keeps what the client sent.
    const rootGb = Math.floor(Math.min(...profile.disks.map((d) => d.size_bytes)) / 2 ** 30) - 1;
    expect(done.properties).toMatchObject({ cpus: String(profile.cpu.count), memory_mb: String(profile.memory_mib), cpu_arch: 'x86_64', local_gb: String(rootGb) });

    const ports = await apiOk<{ ports: { address: string; pxe_enabled: boolean }[] }>(url, 'GET', `/v1/ports/detail?node=${node.uuid}`);
    const byMac = Object.fromEntries(ports.ports.map((p) => [p.address, p.pxe_enabled]));
    expect(byMac).toEqual(Object.fromEntries(profile.nics.map((n) => [n.mac, n.pxe_enabled])));

    const inv = await apiOk<{ inventory: { cpu: { count: number }; interfaces: unknown[] }; plugin_data: Record<string, unknown> }>(url, 'GET', '/v1/nodes/insp-ok/inventory');
    expect(inv.inventory.cpu.count).toBe(profile.cpu.count);
    expect(inv.inventory.interfaces).toHaveLength(profile.nics.length);
    expect(inv.plugin_data).toHaveProperty('root_disk');
    expect(await introspection(node.uuid)).toMatchObject({ finished: true, error: null, state: 'finished' });

    const calls = inspectorCalls();
    expect(calls.some((c) => c.startsWith(`PATCH /v1/nodes/${node.uuid} -> 200`)), calls.join('\n')).toBe(true);
    expect(calls.some((c) => c.startsWith('POST /v1/ports -> 201')), calls.join('\n')).toBe(true);
  }, 180_000);

  it("an error of the inspector's processing ends in inspect failed with its message (node found by its port MAC)", async () => {
    const url = (ingot as Ingot).url;
    const profile = simulatedProfile(1, 'itest');
    const pxe = profile.nics.find((n) => n.pxe_enabled)?.mac as string;
    const node = await inspecting('insp-err', {}, [pxe]);
    // A root device hint no disk satisfies: the inspector's root_disk_selection hook fails the introspection.
    await apiOk(url, 'PATCH', '/v1/nodes/insp-err', [{ op: 'add', path: '/properties/root_device', value: { size: 12345 } }]);

    // The inspector answers the ramdisk with 400 for data it cannot process; the agent gives up on a 4xx.
    await expect(runSimulatedInspection({
      profile, callbackUrl: `${(inspector as Inspector).url}/v1/continue`, bmcAddress: null, totalTimeoutMs: 30_000,
    })).rejects.toThrow(/HTTP 400.*No disks satisfied root device hints/);

    const failed = await waitNode<NodeView>(url, 'insp-err', (n) => n.provision_state === 'inspect failed' && n.reservation === null, 60_000);
    expect(failed.last_error).toBe('Failed to inspect hardware. Reason: ironic-inspector inspection failed: No disks satisfied root device hints. Fix the cause, then "inspect" again or "manage" the node.');
    expect(failed.power_state).toBe('power off');
    expect(await introspection(node.uuid)).toMatchObject({ finished: true, state: 'error', error: 'No disks satisfied root device hints' });
  }, 180_000);

  it('abort in inspect wait cancels the introspection at the inspector', async () => {
    const url = (ingot as Ingot).url;
    const node = await inspecting('insp-abort', { ipmi_address: '192.0.2.12' });
    const r = await api(url, 'PUT', `/v1/nodes/${node.uuid}/states/provision`, { target: 'abort' });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const aborted = await waitNode<NodeView>(url, 'insp-abort', (n) => n.provision_state === 'inspect failed' && n.reservation === null);
    expect(aborted.last_error).toMatch(/By request, the inspection was aborted/);
    const deadline = Date.now() + 30_000;
    let seen = await introspection(node.uuid);
    while (seen.finished !== true && Date.now() < deadline) {
      await new Promise((res) => setTimeout(res, 200));
      seen = await introspection(node.uuid);
    }
    expect(seen).toMatchObject({ finished: true, error: 'Canceled by operator' });
  }, 120_000);

  it('Ingot answered every request the inspector sent', () => {
    const calls = inspectorCalls();
    expect(calls.length).toBeGreaterThan(0);
    const refused = calls.filter((c) => !/ -> [23]\d\d /.test(c));
    expect(refused, `Ingot refused requests of the inspector:\n${calls.join('\n')}`).toEqual([]);
  });
});

describe('inspector inspect interface with no inspector listening', () => {
  it('fails the inspection with a clear last_error', async () => {
    const deadPort = await freePort();
    const d = await mkdtemp(path.join(tmpdir(), 'ingot-inspector-dead-'));
    const lone = await startIngot(d, `http://127.0.0.1:${deadPort}`);
    try {
      await apiOk(lone.url, 'POST', '/v1/nodes', { driver: 'fake-hardware', name: 'insp-dead', inspect_interface: 'inspector' });
      await apiOk(lone.url, 'PUT', '/v1/nodes/insp-dead/states/provision', { target: 'manage' });
      await waitNode<NodeView>(lone.url, 'insp-dead', (n) => n.provision_state === 'manageable' && n.reservation === null);
      await apiOk(lone.url, 'PUT', '/v1/nodes/insp-dead/states/provision', { target: 'inspect' });
      const n = await waitNode<NodeView>(lone.url, 'insp-dead', (x) => x.provision_state === 'inspect failed' && x.reservation === null);
      expect(n.last_error).toMatch(new RegExp(`^Failed to inspect hardware\\. Reason: ironic-inspector at http://127\\.0\\.0\\.1:${deadPort} \\(POST /v1/introspection/[0-9a-f-]+\\) is unreachable: .*ECONNREFUSED`));
      expect(n.last_error).toContain('[inspector] service_url');
    } finally {
      await lone.close();
      await rm(d, { recursive: true, force: true });
    }
  }, 60_000);
});
