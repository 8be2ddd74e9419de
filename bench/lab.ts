/**
 * `npm run bench:lab`: real network boots of QEMU machines (TCG) in an `ingot lab`, all at once, with
 * each machine's phases. Inspection: the `inspect` request → the inventory stored; deployment: the
 * `deploy` request (the lab's test image with a config drive) → the deployed OS printing its marker
 * after booting from its disk. Phases come from the machines' serial consoles (read every 100 ms:
 * iPXE's banner, its DHCP lease, Linux starting, the ramdisk starting the agent, the test image's
 * marker) and from node history (the `write_image` step's duration). Then the deploy ramdisk is fetched
 * from the host over HTTP and over TFTP from the same `ingot serve` (its HTTP boot and TFTP servers on
 * the lab bridge; TFTP lock-step with blksize 1432 as iPXE asks, and with windowsize 16).
 *
 * Each phase also reports the CPU time its QEMU processes used (/proc/<pid>/stat): under TCG a boot is
 * CPU work, so with more machines than cores their sum over the cores bounds the slowest machine; and
 * where the host's cores went meanwhile (/proc/stat: busy — the machines, `ingot serve`, `ingot bmc`, the bench —,
 * idle, stolen by the hypervisor).
 *
 * With --fast-track the lab's nodes keep their agents running after inspection (the machines stay on),
 * so cleaning and the deployment use them instead of booting the ramdisk again: the deployment is then
 * the image write and one boot, from disk.
 *
 * Goals per machine with 4 at once: inspection ≤ 25 s, deployment ≤ 35 s, no failures.
 * Options: --machines 4, --memory-mib 768, --kernel-package (default the lab's, linux-image-cloud-amd64),
 * --compression lz4|gzip|zstd (default lz4), --fast-track, --dir DIR (default a temporary one), --json FILE.
 * Needs root, QEMU, dnsmasq and the built dist/ (npm run build); builds or reuses the deploy ramdisk and
 * the test image in os.tmpdir()/ingot-lab-cache.
 */
import { createHash } from 'node:crypto';
import { copyFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { qemuPaths } from '../src/bmc/qemu/command-line.js';
import { readFrom } from '../src/shared/read-from.js';
import { tftpGet } from '../src/boot/tftp/client.js';
import { isRunningAgentEvent } from '../src/drivers/agent/fast-track.js';
import { LAB_KERNEL_PACKAGE, labDown, labUp, type Lab } from '../src/lab/qemu-lab/index.js';
import { LAB_NET } from '../src/lab/qemu-lab/layout.js';
import { procInfo } from '../src/lab/qemu-lab/processes.js';
import { RAMDISK_COMPRESSIONS } from '../src/lab/build/reproducible-cpio.js';
import { buildRamdisk, type RamdiskCompression } from '../src/lab/ramdisk/index.js';
import { buildTestImage, TEST_IMAGE_BOOTED_MARKER } from '../src/lab/test-image/index.js';
import { median } from './http-load.js';

const { values: opts } = parseArgs({
  options: { machines: { type: 'string', default: '4' }, compression: { type: 'string', default: RAMDISK_COMPRESSIONS[0] }, 'kernel-package': { type: 'string', default: LAB_KERNEL_PACKAGE }, 'memory-mib': { type: 'string', default: '768' }, 'fast-track': { type: 'boolean', default: false }, dir: { type: 'string' }, json: { type: 'string' } },
});
const machines = Number(opts.machines);
const GOAL = { inspect: 25, deploy: 35 };
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CACHE = path.join(tmpdir(), 'ingot-lab-cache');
const HEADERS = { 'x-openstack-ironic-api-version': 'latest', 'content-type': 'application/json' };

/** Console lines whose first appearance marks a phase boundary. */
const MARKS = {
  firmware: /iPXE \d/,
  lease: /net0: 10\.77\.0\.\d+\//,
  linux: /Linux version /,
  agent: /ingot-ramdisk: \[[\d.]+\] starting the agent/,
  booted: new RegExp(TEST_IMAGE_BOOTED_MARKER),
} as const;
type Mark = keyof typeof MARKS;

/** Watches a serial log from its current end: when each mark first appears after `start()`. */
class SerialWatch {
  private offset = 0;
  private text = '';
  private startedAt = 0;
  readonly seen = new Map<Mark, number>();
  constructor(private readonly file: string) {}
  async start(): Promise<void> {
    this.offset = await size(this.file);
    this.text = '';
    this.seen.clear();
    this.startedAt = Date.now();
  }
  async poll(): Promise<void> {
    const bytes = await readFrom(this.file, this.offset).catch(() => Buffer.alloc(0));
    if (bytes.length === 0) return;
    this.offset += bytes.length;
    this.text += bytes.toString('latin1');
    const now = Date.now();
    for (const [mark, re] of Object.entries(MARKS) as [Mark, RegExp][]) if (!this.seen.has(mark) && re.test(this.text)) this.seen.set(mark, now);
  }
  /** Seconds from start() to `mark`, or NaN when it was not seen. */
  at(mark: Mark): number {
    const t = this.seen.get(mark);
    return t === undefined ? NaN : (t - this.startedAt) / 1000;
  }
  tail(lines = 30): string {
    return this.text.split('\n').slice(-lines).join('\n');
  }
}

const size = (file: string): Promise<number> => stat(file).then((st) => st.size, () => 0);

/**
 * The CPU time (user + system) of one machine's QEMU processes since `start()`, read from
 * /proc (`procInfo`) with the PID of the machine's qemu.pid at each poll: every boot is a fresh QEMU, so
 * the processes of one phase are summed. Under TCG this is the guest's work plus QEMU's device emulation.
 */
class GuestCpu {
  private ticks = new Map<number, { first: number; last: number }>();
  constructor(private readonly pidFile: string) {}
  /** From now on: the QEMU running now counts from its current CPU time, later ones from their start. */
  async start(): Promise<void> {
    this.ticks.clear();
    const now = await this.read();
    if (now) this.ticks.set(now.pid, { first: now.ticks, last: now.ticks });
  }
  async poll(): Promise<void> {
    const now = await this.read();
    if (now) this.ticks.set(now.pid, { first: this.ticks.get(now.pid)?.first ?? 0, last: now.ticks });
  }
  private async read(): Promise<{ pid: number; ticks: number } | null> {
    const pid = Number((await readFile(this.pidFile, 'utf8').catch(() => '')).trim());
    const info = pid ? await procInfo(pid) : undefined;
    return info ? { pid, ticks: info.cpuTicks } : null;
  }
  /** CPU seconds so far (Linux's USER_HZ is 100). */
  seconds(): number {
    let sum = 0;
    for (const { first, last } of this.ticks.values()) sum += last - first;
    return sum / 100;
  }
}

/** The host's CPU time (/proc/stat, USER_HZ ticks) and that of the lab's `ingot serve` and `ingot bmc` and of this bench. */
interface HostSample { busy: number; idle: number; steal: number; serve: number; bmc: number; bench: number; at: number }

/**
 * Where the host's cores went during a phase: busy (of which the machines' QEMU processes, `ingot serve`
 * and `ingot bmc`), idle, and stolen by the hypervisor — what says whether the guests' CPU time is the
 * floor of the phase, or something else took the cores.
 */
class HostCpu {
  private first: HostSample | null = null;
  constructor(private readonly lab: Lab) {}
  private async sample(): Promise<HostSample> {
    const line = (await readFile('/proc/stat', 'utf8')).split('\n')[0] ?? '';
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number) as number[];
    const ticks = async (role: 'serve' | 'bmc') => (await procInfo(this.lab.state.processes.find((p) => p.role === role)?.pid ?? 0))?.cpuTicks ?? 0;
    const own = process.cpuUsage();
    return {
      busy: user! + nice! + system! + irq! + softirq!, idle: idle! + iowait!, steal: steal!, serve: await ticks('serve'), bmc: await ticks('bmc'),
      bench: (own.user + own.system) / 10_000, at: Date.now(),
    };
  }
  async start(): Promise<void> {
    this.first = await this.sample();
  }
  /** Shares of the cores' time since start(); `guestS` is the machines' summed CPU seconds. */
  async report(guestS: number): Promise<{ seconds: number; busy: number; guests: number; serve: number; bmc: number; bench: number; idle: number; steal: number; text: string }> {
    const a = this.first!;
    const b = await this.sample();
    const total = b.busy - a.busy + (b.idle - a.idle) + (b.steal - a.steal);
    const pct = (ticks: number) => (total > 0 ? (100 * ticks) / total : NaN);
    const r = {
      seconds: (b.at - a.at) / 1000, busy: pct(b.busy - a.busy), guests: pct(guestS * 100), serve: pct(b.serve - a.serve), bmc: pct(b.bmc - a.bmc), bench: pct(b.bench - a.bench),
      idle: pct(b.idle - a.idle), steal: pct(b.steal - a.steal),
    };
    const text = `${r.seconds.toFixed(1)} s: cores ${r.busy.toFixed(0)} % busy (machines ${r.guests.toFixed(0)} %, ingot serve ${r.serve.toFixed(1)} %, ingot bmc ${r.bmc.toFixed(1)} %, this bench ${r.bench.toFixed(1)} %), ${r.idle.toFixed(0)} % idle, ${r.steal.toFixed(1)} % stolen by the hypervisor`;
    return { ...r, text };
  }
}

async function api<T = Record<string, unknown>>(lab: Lab, method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(`${lab.state.urls.api}${url}`, {
    method, headers: HEADERS, ...(body === undefined ? {} : { body: JSON.stringify(body) }), signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: HTTP ${res.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

interface NodeView { uuid: string; name: string; provision_state: string; last_error: string | null; reservation: string | null; driver_internal_info: Record<string, unknown> }

/**
 * How often the bench asks the API while it follows the machines: once a second, so that it takes little
 * of the host's CPU from them. The times come from the consoles (read every 100 ms) and from node history.
 */
const API_POLL_MS = 1000;

/**
 * Follows a machine: its console and QEMU CPU every 100 ms, the node once a second, until `done` (given
 * the node when it was just read, else null); throws with the console's tail on a failure state or after `timeoutS`.
 */
async function follow(lab: Lab, node: NodeView, watch: SerialWatch, done: (n: NodeView | null) => boolean | Promise<boolean>, timeoutS: number, cpu?: GuestCpu): Promise<void> {
  const started = Date.now();
  let asked = 0;
  for (;;) {
    await Promise.all([watch.poll(), cpu?.poll()]);
    let n: NodeView | null = null;
    if (Date.now() - asked >= API_POLL_MS) {
      asked = Date.now();
      n = await api<NodeView>(lab, 'GET', `/v1/nodes/${node.uuid}`);
      if (/failed$/.test(n.provision_state)) throw new Error(`${node.name}: ${n.provision_state}: ${n.last_error}\n--- console ---\n${watch.tail()}`);
    }
    if (await done(n)) return;
    if (Date.now() - started > timeoutS * 1000) throw new Error(`${node.name}: not done after ${timeoutS} s\n--- console ---\n${watch.tail()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The node's history since `since` (ms), each event with its time in seconds from `since`. */
async function historySince(lab: Lab, uuid: string, since: number): Promise<{ at: number; event: string; duration: number | null }[]> {
  const { history } = await api<{ history: { event: string; duration: number | null; created_at: string }[] }>(lab, 'GET', `/v1/nodes/${uuid}/history?detail=true`);
  return history.map((h) => ({ at: (Date.parse(h.created_at) - since) / 1000, event: h.event, duration: h.duration })).filter((h) => h.at >= -1);
}

/** Seconds from `since` to the first history event matching `re`, NaN when there is none. */
const eventAt = (events: { at: number; event: string }[], re: RegExp) => events.find((h) => re.test(h.event))?.at ?? NaN;

async function settle(lab: Lab, nodes: NodeView[], target: string, state: string): Promise<void> {
  await Promise.all(nodes.map(async (n) => {
    await api(lab, 'PUT', `/v1/nodes/${n.uuid}/states/provision`, { target });
    const deadline = Date.now() + 300_000;
    for (;;) {
      const v = await api<NodeView>(lab, 'GET', `/v1/nodes/${n.uuid}`);
      if (v.provision_state === state && v.reservation === null) return;
      if (/failed$/.test(v.provision_state) || Date.now() > deadline) throw new Error(`${n.name}: ${target} ended in ${v.provision_state}: ${v.last_error}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }));
}

const fmt = (s: number) => (Number.isFinite(s) ? s.toFixed(1).padStart(5) : '    ?');

const dir = opts.dir ?? (await mkdtemp(path.join(tmpdir(), 'ingot-bench-lab-')));
const scratch = await mkdtemp(path.join(tmpdir(), 'ingot-bench-lab-build-'));
let lab: Lab | undefined;
try {
  const ramdisk = await buildRamdisk({ outDir: scratch, cacheDir: CACHE, agentBundle: path.join(REPO, 'dist', 'ingot-agent.cjs'), kernelPackage: opts['kernel-package'], compression: opts.compression as RamdiskCompression, log: (l) => console.log(l) });
  const labDir = path.join(dir, 'lab');
  lab = await labUp({
    dir: labDir, ingot: [process.execPath, path.join(REPO, 'bin', 'ingot.js')], kernel: ramdisk.kernel, initramfs: ramdisk.initramfs,
    machines, memoryMib: Number(opts['memory-mib']), manage: true, fastTrack: opts['fast-track'], logLevel: 'warn', log: (l) => console.log(l),
  });
  const image = lab.paths.testImage;
  await buildTestImage({ out: image, cacheDir: CACHE, kernelPackage: opts['kernel-package'], log: (l) => console.log(l) });
  const checksum = createHash('sha256').update(await readFile(image)).digest('hex');
  const nodes = await Promise.all(lab.state.nodes.map((n) => api<NodeView>(lab!, 'GET', `/v1/nodes/${n.uuid}`)));
  const watches = lab.state.nodes.map((n) => new SerialWatch(n.serial_log));
  const cpus = lab.state.nodes.map((n) => new GuestCpu(qemuPaths(path.dirname(n.serial_log)).pid));
  const host = new HostCpu(lab);
  const guestSum = () => cpus.reduce((sum, c) => sum + c.seconds(), 0);

  // Inspection: all at once, each until its inventory is stored.
  console.log(`\ninspecting ${machines} machines at once…`);
  await Promise.all([...watches.map((w) => w.start()), ...cpus.map((c) => c.start()), host.start()]);
  const inspect = await Promise.all(nodes.map(async (n, i) => {
    const requested = Date.now();
    await api(lab!, 'PUT', `/v1/nodes/${n.uuid}/states/provision`, { target: 'inspect' });
    await follow(lab!, n, watches[i]!, (v) => v?.provision_state === 'manageable' && v.reservation === null, 180, cpus[i]);
    const inventory = await fetch(`${lab!.state.urls.api}/v1/nodes/${n.uuid}/inventory`, { headers: HEADERS });
    if (!inventory.ok) throw new Error(`${n.name}: manageable after inspection, but no inventory: HTTP ${inventory.status}`);
    await inventory.arrayBuffer();
    const total = eventAt(await historySince(lab!, n.uuid, requested), /^inspecting -> manageable/);
    const w = watches[i]!;
    return { node: n.name, total, firmware: w.at('firmware'), lease: w.at('lease'), linux: w.at('linux'), agent: w.at('agent'), cpu: cpus[i]!.seconds() };
  }));
  const inspectHost = await host.report(guestSum());
  // Fast track: each agent, still running, looks its node up and heartbeats; cleaning uses it from then on.
  const agentsUp = Date.now();
  if (opts['fast-track']) await Promise.all(nodes.map((n, i) => follow(lab!, n, watches[i]!, (v) => typeof v?.driver_internal_info.agent_url === 'string', 120)));
  const agentsUpS = (Date.now() - agentsUp) / 1000;

  console.log('cleaning (provide) all at once…');
  const cleanStarted = Date.now();
  await settle(lab, nodes, 'provide', 'available');
  const cleanS = (Date.now() - cleanStarted) / 1000;
  // Which machines' cleaning the running agent took (fast track), from their history rather than assumed.
  const ranOnAgent = (events: { event: string }[], kind: 'clean' | 'deploy') => events.some((h) => isRunningAgentEvent(h.event, kind));
  const cleanedOnAgent = (await Promise.all(nodes.map(async (n) => ranOnAgent(await historySince(lab!, n.uuid, cleanStarted), 'clean')))).filter(Boolean).length;

  // Deployment: all at once, each until the deployed OS prints its marker.
  console.log(`deploying ${machines} machines at once…`);
  for (const n of nodes) {
    await api(lab, 'PATCH', `/v1/nodes/${n.uuid}`, [
      { op: 'add', path: '/instance_info/image_source', value: `file://${image}` },
      { op: 'add', path: '/instance_info/image_checksum', value: `sha256:${checksum}` },
    ]);
  }
  await Promise.all([...watches.map((w) => w.start()), ...cpus.map((c) => c.start()), host.start()]);
  const deploy = await Promise.all(nodes.map(async (n, i) => {
    const requested = Date.now();
    await api(lab!, 'PUT', `/v1/nodes/${n.uuid}/states/provision`, { target: 'active', configdrive: { meta_data: { hostname: `${n.name}.bench` } } });
    const w = watches[i]!;
    await follow(lab!, n, w, () => w.seen.has('booted'), 240, cpus[i]);
    const total = ((w.seen.get('booted') as number) - requested) / 1000;
    // The node's history of this deploy: seconds from the request to each event (the JSON report only).
    const timeline = await historySince(lab!, n.uuid, requested);
    const write = timeline.filter((h) => h.event === 'deploy step deploy.write_image done').at(-1)?.duration ?? NaN;
    const activeAt = eventAt(timeline, /^deploying -> active/);
    return { node: n.name, total, firmware: w.at('firmware'), lease: w.at('lease'), linux: w.at('linux'), agent: w.at('agent'), write, active: activeAt, booted: w.at('booted'), cpu: cpus[i]!.seconds(), fastTracked: ranOnAgent(timeline, 'deploy'), timeline };
  }));
  const deployHost = await host.report(guestSum());

  // The deploy ramdisk over HTTP and over TFTP, from the same ingot serve.
  const name = 'bench-ramdisk';
  await copyFile(ramdisk.initramfs, path.join(lab.state.files.data_dir, 'httpboot', name));
  await copyFile(ramdisk.initramfs, path.join(lab.state.files.data_dir, 'tftpboot', name));
  const transfers: Record<string, number[]> = { http: [], tftpLockstep: [], tftpWindow16: [] };
  for (let run = 0; run < 3; run++) {
    const t = Date.now();
    const res = await fetch(`${lab.state.urls.boot}/${name}`);
    const body = Buffer.from(await res.arrayBuffer());
    if (!res.ok || body.length !== ramdisk.sizeBytes) throw new Error(`HTTP fetch of the ramdisk: ${res.status}, ${body.length} bytes`);
    transfers.http!.push((Date.now() - t) / 1000);
    const lock = await tftpGet({ host: LAB_NET.bridgeAddress, port: 69, file: name, blksize: 1432, tsize: true });
    if (lock.bytes !== ramdisk.sizeBytes) throw new Error(`TFTP fetch of the ramdisk: ${lock.bytes} bytes`);
    transfers.tftpLockstep!.push(lock.durationMs / 1000);
    const win = await tftpGet({ host: LAB_NET.bridgeAddress, port: 69, file: name, blksize: 1432, windowsize: 16, tsize: true });
    if (win.bytes !== ramdisk.sizeBytes) throw new Error(`TFTP (windowsize 16) fetch of the ramdisk: ${win.bytes} bytes`);
    transfers.tftpWindow16!.push(win.durationMs / 1000);
  }

  console.log(`\nInspection, ${machines} machines at once (s from the inspect request): iPXE banner, DHCP lease, Linux starts, agent starts, inventory stored; guest CPU s`);
  for (const r of inspect) console.log(`  ${r.node.padEnd(6)} ${fmt(r.firmware)} ${fmt(r.lease)} ${fmt(r.linux)} ${fmt(r.agent)} ${fmt(r.total)}  ${fmt(r.cpu)}`);
  console.log(`Deployment, ${machines} machines at once (s from the deploy request): iPXE banner, DHCP lease, Linux starts, agent starts, write_image step (duration), active, deployed OS booted from disk; guest CPU s`);
  for (const r of deploy) console.log(`  ${r.node.padEnd(6)} ${fmt(r.firmware)} ${fmt(r.lease)} ${fmt(r.linux)} ${fmt(r.agent)} ${fmt(r.write)} ${fmt(r.active)} ${fmt(r.booted)}  ${fmt(r.cpu)}`);
  const worst = { inspect: Math.max(...inspect.map((r) => r.total)), deploy: Math.max(...deploy.map((r) => r.total)) };
  const med = { http: median(transfers.http!), lock: median(transfers.tftpLockstep!), win: median(transfers.tftpWindow16!) };
  const mb = ramdisk.sizeBytes / 1e6;
  if (opts['fast-track']) {
    const deployedOnAgent = deploy.filter((r) => r.fastTracked).length;
    const others = cleanedOnAgent < machines || deployedOnAgent < machines ? ' (the others booted the ramdisk: their history says why)' : '';
    console.log(`\nfast track: every agent heartbeated ${agentsUpS.toFixed(1)} s after the last inspection ended; the running agent took the clean steps of ${cleanedOnAgent} and the deploy steps of ${deployedOnAgent} of ${machines} machines${others}`);
  }
  console.log(`${opts['fast-track'] ? '' : '\n'}cleaning (erase_devices_metadata through the agent) of all ${machines}: ${cleanS.toFixed(1)} s`);
  console.log(`inspection per machine, ${machines} at once: slowest ${worst.inspect.toFixed(1)} s, median ${median(inspect.map((r) => r.total)).toFixed(1)} s (goal ≤ ${GOAL.inspect} s: ${worst.inspect <= GOAL.inspect ? 'met' : 'NOT met'})`);
  console.log(`deployment per machine, ${machines} at once: slowest ${worst.deploy.toFixed(1)} s, median ${median(deploy.map((r) => r.total)).toFixed(1)} s (goal ≤ ${GOAL.deploy} s: ${worst.deploy <= GOAL.deploy ? 'met' : 'NOT met'}); failures: 0`);
  // Under TCG a machine's boot is CPU work of its QEMU: with more machines than cores, their summed CPU
  // time over the cores bounds how soon the last one can finish, whatever Ingot does meanwhile.
  const cores = availableParallelism();
  const floor = (rows: { cpu: number }[]) => rows.reduce((sum, r) => sum + r.cpu, 0) / Math.min(cores, machines);
  console.log(`guest CPU (QEMU's user + system time) per machine: inspection median ${median(inspect.map((r) => r.cpu)).toFixed(1)} s, deployment median ${median(deploy.map((r) => r.cpu)).toFixed(1)} s; on ${cores} cores, all ${machines} need at least ${floor(inspect).toFixed(1)} s (inspection) and ${floor(deploy).toFixed(1)} s (deployment)`);
  console.log(`host during the inspections, ${inspectHost.text}`);
  console.log(`host during the deployments, ${deployHost.text}`);
  console.log(`ramdisk ${mb.toFixed(1)} MB from the host, median of 3: HTTP ${med.http.toFixed(2)} s (${(mb / med.http).toFixed(0)} MB/s); TFTP blksize 1432 lock-step ${med.lock.toFixed(2)} s (${(med.lock / med.http).toFixed(1)}× HTTP); TFTP windowsize 16 ${med.win.toFixed(2)} s (${(med.win / med.http).toFixed(1)}× HTTP)`);
  if (opts.json) await writeFile(opts.json, JSON.stringify({ machines, fastTrack: opts['fast-track'], goal: GOAL, inspect, deploy, cleanedOnAgent, host: { inspect: inspectHost, deploy: deployHost }, cleanSeconds: cleanS, transfers, ramdiskBytes: ramdisk.sizeBytes }, null, 2));
} finally {
  if (lab) await labDown({ dir: lab.paths.dir, log: (l) => console.log(l) }).catch((err: unknown) => console.error(`lab down: ${String(err)}`));
  await rm(scratch, { recursive: true, force: true });
  if (!opts.dir) await rm(dir, { recursive: true, force: true });
}
