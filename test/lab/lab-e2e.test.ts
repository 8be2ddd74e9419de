/**
 * The whole life of two real machines through Ingot's REST API, at once: QEMU VMs (TCG) in a lab
 * network namespace, one behind the Redfish emulator and one behind the IPMI emulator of `ingot bmc`,
 * enrolled by labUp with the `ipxe` boot, `direct` deploy and `agent` inspect interfaces.
 *
 * Per machine, every phase running concurrently on both:
 * 1. manage — Ingot reads power and validates management through the emulated BMC;
 * 2. inspect — the VM network-boots the real deploy ramdisk (DHCP from the managed dnsmasq, iPXE, kernel
 *    and initramfs over HTTP), the agent posts its inventory; the stored inventory and the node's
 *    properties must match the VM's configuration (1 CPU, its memory, its disk, its MAC);
 * 3. provide — automated cleaning through the agent (`erase_devices_metadata`): partition-table-like
 *    bytes written at both ends of the VM's disk file beforehand must be zero afterwards;
 * 4. deploy — the lab's test image (built into the lab directory, a file:// image Ingot converts and
 *    serves) with a config drive naming a hostname per node; active; the VM then boots from its disk
 *    and prints the test image's marker and the config drive's hostname and UUID on its serial console;
 * 5. undeploy — tear down and cleaning again, back to available, the written image's MBR erased.
 * The IPMI machine runs with fast track (driver_info `fast_track`): after inspection it stays on and its
 * agent looks the node up and heartbeats; cleaning and the deployment use that agent — the console shows
 * no boot between the inspection and the boot from disk — and after undeploy's cleaning the agent is
 * kept again. The Redfish machine goes the way without fast track, a ramdisk boot per phase.
 * Each phase's wall time is printed (`lab-e2e: lab-1 inspect 23.4 s`) and checked against the node's
 * history, where every provision state change records how long the node spent in the state it left.
 *
 * The test image runs with `stay`: it stays up after its report, as an active instance does, so the
 * power state Ingot recorded when it went active ("power on") stays true and the periodic power sync
 * has nothing to change behind the test's back; undeploy powers it off through the BMC.
 *
 * A failure names the phase and the node, the node's provision state and last_error, what `ingot serve`
 * logged about the node, and the last lines of that VM's serial console. The lab is removed in every case
 * (the test's finally and afterAll), and the test checks nothing of it is left: namespace, uplink, route,
 * QEMU, dnsmasq, files. INGOT_TEST_LAB_KEEP=<dir> copies the lab's logs and serial consoles there first;
 * INGOT_TEST_LAB_LOG=1 prints the lab's progress lines.
 *
 * Takes ~2 minutes on a 2-core host once the ramdisk is cached (the phases run under a 6-minute budget).
 * Needs root, iproute2, QEMU, dnsmasq, the ramdisk and test image build tools (each fails with its
 * install hint) and the built dist/ (`npm run build`). The deploy ramdisk and Debian's kernel come from
 * the persistent cache `os.tmpdir()/ingot-lab-cache` shared with ramdisk.test.ts and test-image.test.ts.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, open, readFile, rename, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAB_KERNEL_PACKAGE, labDown, labUp, requireLabTools, type Lab, type LabDownReport, type LabNode, type LabState } from '../../src/lab/qemu-lab/index.js';
import { LabApi, type LabNodeView } from '../../src/lab/qemu-lab/lab-api.js';
import { procInfo } from '../../src/lab/qemu-lab/processes.js';
import { buildRamdisk, type RamdiskBuild } from '../../src/lab/ramdisk/index.js';
import { buildTestImage, parseTestImageConsole, TEST_IMAGE_BOOTED_MARKER, type TestImageBuild } from '../../src/lab/test-image/index.js';
import { REPO_ROOT } from '../support/server.js';
import { hostLinkExists, ipOut, labProcesses, namespaces } from './lab-host.js';

const NS = 'ingot-lab-e2e';
const CACHE = path.join(os.tmpdir(), 'ingot-lab-cache');
const INGOT = [process.execPath, path.join(REPO_ROOT, 'bin', 'ingot.js')];
const MEMORY_MIB = 768;
/** IPA's (and Ingot's agent's) smallest root disk is 4 GiB: a smaller one cannot be deployed to without root device hints. */
const DISK_GIB = 4;
const MIB = 1024 * 1024;
const GIB = 1024 * MIB;
const CONSOLE_TAIL_LINES = 40;
/** The lab's IPMI machine runs with fast track. */
const fastTracked = (n: LabNode) => n.driver === 'ipmi';
/** SeaBIOS prints its banner at every start of a machine. */
const firmwareStarts = (console: string) => console.split('SeaBIOS (version').length - 1;
/**
 * The longest the phases may take together (a run takes ~2 minutes on a quiet 2-core host): each wait
 * is cut to what is left of it, so a stuck phase fails with its own message before vitest's timeout.
 */
const PHASES_BUDGET_MS = 360_000;
let deadline = Infinity;
/** `ms`, or what is left of the budget when that is less (at least a second, so the wait reports its own failure). */
const budget = (ms: number) => Math.max(1000, Math.min(ms, deadline - Date.now()));

let base: string | undefined;
let lab: Lab | undefined;
let ramdisk: RamdiskBuild;
let testImage: TestImageBuild;
/** The lab's progress lines, shown with INGOT_TEST_LAB_LOG=1. */
const log = (line: string) => {
  if (process.env.INGOT_TEST_LAB_LOG) process.stderr.write(`${line}\n`);
};
const say = (line: string) => process.stderr.write(`lab-e2e: ${line}\n`);
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The node fields this test reads, beyond the lab's own view. */
interface NodeView extends LabNodeView {
  provision_updated_at: string | null;
  properties: Record<string, unknown>;
  instance_info: Record<string, unknown>;
  driver_internal_info: Record<string, unknown>;
}

interface HistoryEntry {
  created_at: string;
  event: string;
  event_type?: string;
  severity: string;
  duration: number | null;
}

/** A provision state change as the conductor records it: `<from> -> <to> (<event>)[: why]`. */
interface StateChange {
  at: number;
  from: string;
  to: string;
  event: string;
  duration: number | null;
  text: string;
}

const api = () => new LabApi(lab!.state.urls.api);

/** The end of a VM's serial console, without the firmware's escape sequences. */
async function consoleTail(node: LabNode, lines = CONSOLE_TAIL_LINES): Promise<string> {
  const text = await readFile(node.serial_log, 'utf8').catch((err: unknown) => `(no serial log: ${(err as Error).message})`);
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/\x1b\[[0-9;?]*[A-Za-z]|\x1bc/g, '').replace(/\r/g, '');
  return clean.split('\n').slice(-lines).join('\n');
}

/** The last `count` lines of the lab's `ingot serve` log that name node `uuid`. */
async function serveLogAbout(uuid: string, count = 10): Promise<string> {
  const text = await readFile(lab!.paths.serveLog, 'utf8').catch(() => '');
  const lines = text.split('\n').filter((l) => l.includes(uuid)).slice(-count);
  return lines.map((l) => {
    try {
      const j = JSON.parse(l) as { time: number; level: number; msg: string; err?: { message?: string } };
      return `${new Date(j.time).toISOString().slice(11, 23)} ${j.level >= 50 ? 'ERROR' : j.level >= 40 ? 'WARN' : 'INFO'} ${j.msg}${j.err?.message ? ` (${j.err.message})` : ''}`;
    } catch {
      return l;
    }
  }).join('\n');
}

/** Runs `fn` as phase `phase` of `node`; a failure says which, where the node is, and what its console printed last. */
async function phase<T>(node: LabNode, name: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    let where = '';
    try {
      const n = await api().node(node.uuid!);
      where = `provision_state ${n.provision_state} (target ${n.target_provision_state ?? 'none'}), power ${n.power_state ?? '?'}, last_error: ${n.last_error ?? 'none'}`;
    } catch (apiErr) {
      where = `node state unknown: ${(apiErr as Error).message}`;
    }
    const message = `${name} of ${node.name} (${node.driver}) failed: ${(err as Error).message}\n  ${where}\n` +
      `  ingot serve about it (${lab!.paths.serveLog}; the lab's files go with it, INGOT_TEST_LAB_KEEP=<dir> keeps them):\n${(await serveLogAbout(node.uuid!)).replace(/^/gm, '    | ')}\n` +
      `  last ${CONSOLE_TAIL_LINES} lines of ${node.serial_log}:\n${(await consoleTail(node)).replace(/^/gm, '    | ')}`;
    throw new Error(message, { cause: err });
  }
}

/** Runs one phase on every node at once; throws one error naming every node that failed. */
async function everyNode<T>(name: string, fn: (node: LabNode, i: number) => Promise<T>): Promise<T[]> {
  const results = await Promise.allSettled(lab!.state.nodes.map((n, i) => phase(n, name, () => fn(n, i))));
  const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed.length > 0) throw new Error(failed.map((r) => (r.reason as Error).message).join('\n\n'));
  return results.map((r) => (r as PromiseFulfilledResult<T>).value);
}

/** Polls node `uuid` until it is `state`, unlocked, with a state change at or after `since` (ms). Throws on a `… failed` state. */
async function settle(uuid: string, state: string, since: number, timeoutMs: number): Promise<NodeView> {
  const n = await api().waitNode(
    uuid,
    (v) => {
      const w = v as NodeView;
      return w.provision_state === state && w.target_provision_state === null && w.reservation === null && w.provision_updated_at !== null && Date.parse(w.provision_updated_at) >= since;
    },
    timeoutMs,
  );
  return n as NodeView;
}

async function stateChanges(uuid: string): Promise<{ changes: StateChange[]; all: HistoryEntry[] }> {
  const { history } = await api().call<{ history: HistoryEntry[] }>('GET', `/v1/nodes/${uuid}/history?detail=true&limit=1000`);
  const changes: StateChange[] = [];
  for (const h of history) {
    const m = /^(.+?) -> (.+?) \(([^)]+)\)/.exec(h.event);
    if (h.event_type === 'provisioning' && m) changes.push({ at: Date.parse(h.created_at), from: m[1]!, to: m[2]!, event: m[3]!, duration: h.duration, text: h.event });
  }
  changes.sort((a, b) => a.at - b.at);
  return { changes, all: history };
}

/**
 * The state changes of the phase that left `from` at or after `since` and ended in `to`, and the
 * seconds the history says the phase took: the sum of the durations of every change after the first
 * (each change records how long the node spent in the state it left).
 */
function phaseChanges(changes: StateChange[], from: string, to: string, since: number): { path: string[]; recordedS: number; changes: StateChange[] } {
  // Timestamps may be stored to the millisecond or the second: allow a second of rounding.
  const start = changes.findIndex((c) => c.from === from && c.at >= since - 1000);
  if (start < 0) throw new Error(`the history has no change out of "${from}" since the phase began: ${changes.map((c) => c.text).join('; ')}`);
  const end = changes.findIndex((c, i) => i > start && c.to === to);
  if (end < 0) throw new Error(`the history has no change into "${to}" after "${changes[start]!.text}"`);
  const inPhase = changes.slice(start, end + 1);
  const recorded = inPhase.slice(1).map((c) => {
    if (c.duration === null) throw new Error(`the history entry "${c.text}" has no duration`);
    return c.duration;
  });
  return { path: [from, ...inPhase.map((c) => c.to)], recordedS: recorded.reduce((a, b) => a + b, 0), changes: inPhase };
}

/**
 * Asserts the history recorded the phase with its durations, and prints them beside the time this test
 * measured (a figure for the reader, not an assertion: speed is bench:lab's).
 */
async function checkPhaseHistory(node: LabNode, name: string, from: string, to: string, since: number, measuredMs: number, expectPath: RegExp): Promise<StateChange[]> {
  const { changes } = await stateChanges(node.uuid!);
  const p = phaseChanges(changes, from, to, since);
  say(`${node.name} ${name} ${secs(measuredMs)} (history: ${p.recordedS.toFixed(1)} s, ${p.path.join(' → ')})`);
  expect(p.path.join(' → '), `${node.name} ${name}: states`).toMatch(expectPath);
  // The durations add up to the span between the phase's first and last change as the history's own
  // timestamps tell it (each is stored to the millisecond or the second: a second of rounding at each end).
  const spanS = ((p.changes.at(-1) as StateChange).at - (p.changes[0] as StateChange).at) / 1000;
  expect(Math.abs(p.recordedS - spanS), `${node.name} ${name}: recorded ${p.recordedS.toFixed(1)} s, history span ${spanS.toFixed(1)} s`).toBeLessThanOrEqual(2);
  return p.changes;
}

/**
 * The states of cleaning from `start`: the agent is booted (clean wait), each heartbeat that finds a
 * step to start or a finished one resumes cleaning, and cleaning ends in available.
 */
const CLEANING = (start: string) => new RegExp(`^${start} → cleaning( → clean wait → cleaning)+ → available$`);

/** The history entry of the agent's metadata erase (a step of the deploy interface, run in-band). */
const ERASE_STEP_DONE = 'clean step deploy.erase_devices_metadata done';

async function provision(node: LabNode, body: Record<string, unknown>): Promise<void> {
  await api().call('PUT', `/v1/nodes/${node.uuid}/states/provision`, body);
}

/** Bytes `length` at `offset` of a file. */
async function readAt(file: string, offset: number, length: number): Promise<Buffer> {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(length);
    const { bytesRead } = await fh.read(buf, 0, length, offset);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

async function writeAt(file: string, offset: number, data: Buffer): Promise<void> {
  const fh = await open(file, 'r+');
  try {
    await fh.write(data, 0, data.length, offset);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** A fake MBR (boot code, one partition entry, the 0x55AA signature) and a fake backup GPT header: what erase_devices_metadata must remove. */
function fakeMetadata(seed: string): { head: Buffer; tail: Buffer } {
  const head = Buffer.alloc(512);
  createHash('sha256').update(seed).digest().copy(head, 0);
  head.set([0x80, 0, 0, 0, 0x83, 0, 0, 0, 0, 8, 0, 0, 0, 0, 1, 0], 446);
  head.writeUInt16LE(0xaa55, 510);
  const tail = Buffer.alloc(512);
  tail.write('EFI PART', 0, 'latin1');
  createHash('sha256').update(`${seed}-tail`).digest().copy(tail, 8);
  return { head, tail };
}

const isZero = (b: Buffer) => b.every((x) => x === 0);


let down: Promise<LabDownReport> | undefined;

/** Takes the lab down, once: the test's `finally` and afterAll may both ask. */
function takeDown(l: Lab): Promise<LabDownReport> {
  down ??= (async () => {
    // For a look after the run: INGOT_TEST_LAB_KEEP=<dir> keeps the lab's logs, serial consoles and state.
    const keep = process.env.INGOT_TEST_LAB_KEEP;
    if (keep) {
      await mkdir(keep, { recursive: true });
      await cp(l.paths.logDir, path.join(keep, 'logs'), { recursive: true }).catch(() => undefined);
      for (const n of l.state.nodes) await cp(n.serial_log, path.join(keep, `${n.name}-serial.log`)).catch(() => undefined);
      await cp(l.paths.state, path.join(keep, 'lab.json')).catch(() => undefined);
    }
    return labDown({ dir: l.state.dir, log, graceMs: 10_000 });
  })();
  return down;
}

/** Nothing of the lab is left: its network, its processes (`pids`, and any naming its directory), its files. */
async function expectGone(state: LabState, report: LabDownReport, pids: number[]): Promise<void> {
  expect(report.warnings, 'labDown warnings').toEqual([]);
  expect(namespaces()).not.toContain(state.namespace);
  expect(hostLinkExists(state.veth.host), `the host end of the uplink ${state.veth.host}`).toBe(false);
  expect(ipOut('route', 'show', state.addresses.subnet).trim(), 'the route to the lab subnet').toBe('');
  for (const pid of pids) expect(await procInfo(pid), `PID ${pid} still runs after labDown`).toBeUndefined();
  expect(await labProcesses(state.dir)).toEqual([]);
  expect(existsSync(state.dir), 'the lab directory is removed').toBe(false);
}

beforeAll(async () => {
  requireLabTools();
  if (!existsSync(path.join(REPO_ROOT, 'dist', 'ingot.mjs'))) throw new Error('dist/ingot.mjs is missing: run `npm run build` first');
  // A crashed earlier run of this file may have left its namespace behind.
  if (namespaces().includes(NS)) await labDown({ dir: path.join(os.tmpdir(), 'ingot-lab-e2e-leftover'), namespace: NS, force: true, log });
  base = await mkdtemp(path.join(os.tmpdir(), 'ingot-lab-e2e-'));
  const started = Date.now();
  const agentBundle = path.join(base, 'ingot-agent.cjs');
  await promisify(execFile)(process.execPath, ['scripts/bundle-agent.mjs', '--outfile', agentBundle], { cwd: REPO_ROOT, timeout: 60_000 });
  // stay: the deployed machine keeps running after its report, as an active instance does (see the module doc).
  [ramdisk, testImage] = await Promise.all([
    buildRamdisk({ outDir: path.join(base, 'ramdisk'), cacheDir: CACHE, agentBundle, kernelPackage: LAB_KERNEL_PACKAGE, log }),
    buildTestImage({ out: path.join(base, 'test-image.img'), cacheDir: CACHE, kernelPackage: LAB_KERNEL_PACKAGE, stay: true, log }),
  ]);
  say(`ramdisk ${ramdisk.cached ? 'from the cache' : 'built'} and test image built in ${secs(Date.now() - started)}`);
}, 300_000);

afterAll(async () => {
  try {
    if (lab) await takeDown(lab).catch((err: unknown) => say(`labDown: ${String(err)}`));
    // The last resort when labUp died half-way: whatever runs in the namespace.
    if (namespaces().includes(NS)) await labDown({ dir: path.join(base ?? os.tmpdir(), 'lab'), namespace: NS, force: true, log });
  } finally {
    if (base) await rm(base, { recursive: true, force: true });
  }
}, 120_000);

describe('ingot lab end to end', () => {
  let report: LabDownReport;
  let labPids: number[] = [];
  it('takes two real machines through manage, inspect, provide, deploy with a config drive and undeploy, at once, one with fast track', async () => {
    const t0 = Date.now();
    deadline = t0 + PHASES_BUDGET_MS;
    const dir = path.join(base!, 'lab');
    lab = await labUp({ dir, ingot: INGOT, kernel: ramdisk.kernel, initramfs: ramdisk.initramfs, machines: 2, memoryMib: MEMORY_MIB, diskGib: DISK_GIB, namespace: NS, log });
    try {
      const { state } = lab;
      say(`lab up with ${state.nodes.map((n) => `${n.name} (${n.driver})`).join(', ')} in ${secs(Date.now() - t0)}`);
      expect(state.nodes.map((n) => n.driver).sort()).toEqual(['ipmi', 'redfish']);
      // The image must be under the lab directory: the only place its file:// URLs may point to.
      const image = lab.paths.testImage;
      await mkdir(path.dirname(image), { recursive: true });
      await rename(testImage.out, image);
      const imageSha256 = createHash('sha256').update(await readFile(image)).digest('hex');
      const imageHead = await readAt(image, 0, 512);
      for (const n of state.nodes.filter(fastTracked)) {
        await api().call('PATCH', `/v1/nodes/${n.uuid}`, [{ op: 'add', path: '/driver_info/fast_track', value: true }]);
        say(`${n.name} runs with fast track`);
      }
      /** Per fast-tracked node: the URL of the agent kept running after inspection. */
      const keptAgent = new Map<string, string>();

      // 1. manage.
      await everyNode('manage', async (n) => {
        const t = Date.now();
        await provision(n, { target: 'manage' });
        const v = await settle(n.uuid!, 'manageable', t, budget(60_000));
        const ms = Date.now() - t;
        expect(v.power_state).toBe('power off');
        await checkPhaseHistory(n, 'manage', 'enroll', 'manageable', t, ms, /^enroll → verifying → manageable$/);
      });

      // 2. inspect: a real network boot of the deploy ramdisk.
      await everyNode('inspect', async (n, i) => {
        const consoleFrom = (await stat(n.serial_log).catch(() => ({ size: 0 }))).size;
        const t = Date.now();
        await provision(n, { target: 'inspect' });
        const v = await settle(n.uuid!, 'manageable', t, budget(150_000));
        const ms = Date.now() - t;
        await checkPhaseHistory(n, 'inspect', 'manageable', 'manageable', t, ms, /^manageable → inspecting → inspect wait → inspecting → manageable$/);
        const { inventory } = await api().call<{ inventory: {
          cpu: { count: number; architecture: string };
          memory: { physical_mb: number; total: number };
          disks: { name: string; size: number }[];
          interfaces: { name: string; mac_address: string; ipv4_address: string | null }[];
        } }>('GET', `/v1/nodes/${n.uuid}/inventory`);
        expect(inventory.cpu).toMatchObject({ count: 1, architecture: 'x86_64' });
        expect(inventory.memory.physical_mb).toBe(MEMORY_MIB);
        expect(inventory.disks.map((d) => [d.name, d.size])).toEqual([['/dev/vda', DISK_GIB * GIB]]);
        const nic = inventory.interfaces.find((x) => x.mac_address === n.macs[0]);
        expect(nic, JSON.stringify(inventory.interfaces)).toBeDefined();
        // The lease the managed dnsmasq handed out on the lab bridge.
        expect(nic!.ipv4_address).toMatch(/^10\.77\.0\.1\d\d$/);
        expect(v.properties).toMatchObject({ cpus: 1, memory_mb: MEMORY_MIB, cpu_arch: 'x86_64', local_gb: DISK_GIB - 1 });
        if (fastTracked(n)) {
          expect(v.power_state, 'with fast track the machine stays on').toBe('power on');
          // The agent goes on: it looks the node up (in manageable) and heartbeats.
          const kept = await api().waitNode(n.uuid!, (x) => typeof (x as NodeView).driver_internal_info.agent_url === 'string', budget(60_000)) as NodeView;
          keptAgent.set(n.uuid!, String(kept.driver_internal_info.agent_url));
          expect((await stateChanges(n.uuid!)).all.map((h) => h.event)).toContain('fast track: the agent keeps running after inspection; the machine stays on');
        } else {
          expect(v.power_state, 'inspection powers the machine off').toBe('power off');
        }
        // A real network boot: iPXE took its script and the ramdisk from Ingot's HTTP boot server.
        const boot = (await readFile(n.serial_log)).subarray(consoleFrom).toString('utf8');
        expect(boot).toContain(`${state.urls.boot}/boot.ipxe... ok`);
        expect(boot).toContain(`${state.urls.boot}/${n.uuid}/deploy_ramdisk...`);
        // (Whether the agent's "inspection data posted" line makes it to the console is a race when Ingot
        // powers the machine off as soon as it has the data; a fast-tracked agent lives on to say it.)
        expect(boot).toMatch(/ingot-ramdisk: \[[\d.]+\] starting the agent/);
        if (fastTracked(n)) expect(boot).toContain(`ingot-agent: Lookup succeeded, node UUID is ${n.uuid}`);
        // Inspection keeps the node's one port (the MAC it was enrolled with).
        const { ports } = await api().call<{ ports: { address: string; pxe_enabled: boolean }[] }>('GET', `/v1/ports?node=${n.uuid}&detail=true`);
        expect(ports.map((p) => [p.address, p.pxe_enabled])).toEqual([[n.macs[0], true]]);
        // Something for cleaning to erase: an MBR at the start of the disk, a GPT header at its end.
        const fake = fakeMetadata(`${n.name}-${i}`);
        expect((await stat(n.disk)).size).toBe(DISK_GIB * GIB);
        await writeAt(n.disk, 0, fake.head);
        await writeAt(n.disk, DISK_GIB * GIB - 512, fake.tail);
      });

      // 3. provide: automated cleaning through the agent.
      await everyNode('provide', async (n) => {
        const consoleFrom = (await stat(n.serial_log)).size;
        const t = Date.now();
        await provision(n, { target: 'provide' });
        await settle(n.uuid!, 'available', t, budget(150_000));
        const ms = Date.now() - t;
        await checkPhaseHistory(n, 'provide', 'manageable', 'available', t, ms, CLEANING('manageable'));
        const { all } = await stateChanges(n.uuid!);
        const steps = all.filter((h) => h.event === ERASE_STEP_DONE);
        expect(steps, `the clean step ran: ${all.map((h) => h.event).join('; ')}`).toHaveLength(1);
        expect(steps[0]!.duration, 'the clean step’s duration').toBeGreaterThan(0);
        expect(isZero(await readAt(n.disk, 0, MIB)), 'the first MiB of the disk is zero after cleaning').toBe(true);
        expect(isZero(await readAt(n.disk, DISK_GIB * GIB - MIB, MIB)), 'the last MiB of the disk is zero after cleaning').toBe(true);
        const boots = firmwareStarts((await readFile(n.serial_log)).subarray(consoleFrom).toString('utf8'));
        const after = await api().node(n.uuid!) as NodeView;
        if (fastTracked(n)) {
          expect(all.map((h) => h.event)).toContain(`fast track: the running agent at ${keptAgent.get(n.uuid!)} takes the clean steps; no ramdisk boot`);
          expect(boots, 'no boot of the machine during cleaning').toBe(0);
          expect(after.power_state).toBe('power on');
          expect(after.driver_internal_info.agent_url, 'the agent of the inspection, still running').toBe(keptAgent.get(n.uuid!));
        } else {
          expect(boots, 'one network boot for cleaning').toBe(1);
          expect(after.power_state).toBe('power off');
        }
      });

      // 4. deploy the test image with a config drive; the machine must then boot it from its disk.
      await everyNode('deploy', async (n) => {
        const hostname = `${n.name}-e2e`;
        await api().call('PATCH', `/v1/nodes/${n.uuid}`, [
          { op: 'add', path: '/instance_info/image_source', value: `file://${image}` },
          { op: 'add', path: '/instance_info/image_os_hash_algo', value: 'sha256' },
          { op: 'add', path: '/instance_info/image_os_hash_value', value: imageSha256 },
        ]);
        const consoleFrom = (await stat(n.serial_log)).size;
        const t = Date.now();
        await provision(n, { target: 'active', configdrive: { meta_data: { hostname } } });
        const v = await settle(n.uuid!, 'active', t, budget(180_000));
        const ms = Date.now() - t;
        await checkPhaseHistory(n, 'deploy', 'available', 'active', t, ms, /^available → deploying( → wait call-back → deploying)+ → active$/);
        expect(v.power_state).toBe('power on');
        const disk = await readAt(n.disk, 0, 512);
        expect(disk.subarray(0, 440).equals(imageHead.subarray(0, 440)), 'the image’s boot code is on the disk').toBe(true);

        // The machine boots the written disk: SeaBIOS → syslinux → the test image's kernel and /init.
        const bootWaitMs = budget(120_000);
        const bootDeadline = Date.now() + bootWaitMs;
        let report = parseTestImageConsole('');
        for (;;) {
          const text = (await readFile(n.serial_log)).subarray(consoleFrom).toString('utf8');
          report = parseTestImageConsole(text);
          if (report.done) break;
          if (Date.now() > bootDeadline) throw new Error(`the deployed machine did not report (${TEST_IMAGE_BOOTED_MARKER} then its config drive) within ${secs(bootWaitMs)} after active: ${JSON.stringify(report)}`);
          await new Promise((r) => setTimeout(r, 250));
        }
        say(`${n.name} boots the deployed image: reported ${secs(Date.now() - t - ms)} after active`);
        expect(report, JSON.stringify(report)).toMatchObject({ booted: true, done: true, hostname, uuid: n.uuid });
        expect(report.configDrive).toMatch(/^\/dev\/vda\d+$/);
        // The last boot came from the disk (syslinux), not from the network.
        const text = (await readFile(n.serial_log)).subarray(consoleFrom).toString('utf8');
        const lastBoot = text.slice(text.lastIndexOf('SeaBIOS'));
        expect(lastBoot).toContain('SYSLINUX');
        expect(lastBoot).not.toContain('Attempting to boot from MAC');
        // With fast track the running agent wrote the image: the boot from disk was the only start.
        expect(firmwareStarts(text), 'machine starts during the deployment').toBe(fastTracked(n) ? 1 : 2);
        // Ingot offers an active node no network boot any more.
        const script = await fetch(`${state.urls.boot}/pxelinux.cfg/${n.macs[0]!.replace(/:/g, '-')}`, { signal: AbortSignal.timeout(10_000) });
        expect(script.status, 'the per-MAC iPXE script of an active node').toBe(404);
        await script.arrayBuffer();
        const { all } = await stateChanges(n.uuid!);
        const deploySteps = all.map((h) => /^deploy step deploy\.(\w+) done$/.exec(h.event)?.[1]).filter(Boolean);
        expect(deploySteps).toEqual(['deploy', 'write_image', 'prepare_instance_boot', 'tear_down_agent', 'switch_to_tenant_network', 'boot_instance']);
        // Still up (stay), as Ingot recorded it: its QEMU runs.
        expect((await api().node(n.uuid!)).power_state).toBe('power on');
        expect((await labProcesses(state.dir)).filter((p) => /qemu-system/.test(p.cmdline) && p.cmdline.includes(n.disk)), `${n.name}'s QEMU`).toHaveLength(1);
      });

      // 5. undeploy: tear down and cleaning, back to available.
      await everyNode('undeploy', async (n) => {
        const t = Date.now();
        await provision(n, { target: 'deleted' });
        const v = await settle(n.uuid!, 'available', t, budget(150_000));
        const ms = Date.now() - t;
        await checkPhaseHistory(n, 'undeploy', 'active', 'available', t, ms, CLEANING('active → deleting'));
        expect(v.instance_info, 'instance_info is cleared').toEqual({});
        if (fastTracked(n)) {
          // The cleaning booted a ramdisk (the instance was powered off); its agent is kept.
          expect(v.power_state).toBe('power on');
          expect(v.driver_internal_info.agent_url).toEqual(expect.any(String));
        } else {
          expect(v.power_state).toBe('power off');
          expect(v.driver_internal_info, 'the agent’s URL is forgotten with its token').not.toHaveProperty('agent_url');
        }
        const { all } = await stateChanges(n.uuid!);
        expect(all.filter((h) => h.event === ERASE_STEP_DONE), 'the clean step ran at provide and at undeploy').toHaveLength(2);
        expect(isZero(await readAt(n.disk, 0, MIB)), 'the image’s MBR is erased').toBe(true);
        // What Ingot served the agent (the image converted from file://, the ramdisk) is gone with the instance.
        expect(existsSync(path.join(state.files.data_dir, 'httpboot', n.uuid!)), 'the node’s HTTP boot directory').toBe(false);
      });
      say(`all phases done in ${secs(Date.now() - t0)}`);
    } finally {
      // On failure too; the failure is what the test reports, so nothing is asserted here.
      labPids = [...lab.state.processes.map((p) => p.pid), ...(await labProcesses(lab.state.dir)).map((p) => p.pid)];
      report = await takeDown(lab);
    }
    await expectGone(lab.state, report, labPids);
    say(`total with lab down ${secs(Date.now() - t0)}`);
  }, PHASES_BUDGET_MS + 60_000);
});
