/**
 * `npm run bench:power-sync`: one power-sync sweep of N emulated Redfish machines and of N emulated IPMI
 * machines (`ingot bmc --simulate N`, a child process whose CPU is reported on its own), run by an
 * in-process conductor on SQLite, next to the way Ironic's ipmitool driver reads power: one `ipmitool`
 * process per node, as many at once as the conductor's sync workers. Also the memory of an emulated
 * machine. Options: --machines 1000, --ipmitool-nodes 1000, --json FILE.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify, parseArgs } from 'node:util';
import type { InventoryEntry } from '../src/bmc/inventory.js';
import { driverInfoFor } from '../src/bmc/inventory.js';
import { createConductor } from '../src/conductor/conductor.js';
import { syncPowerStatesOnce } from '../src/conductor/periodics/power-sync.js';
import { openStore } from '../src/db/open-store.js';
import { procInfo } from '../src/lab/qemu-lab/processes.js';
import { silentLogger } from '../src/shared/logger.js';
import { memoryMiB, spawnServer, type ChildServer } from './child.js';
import { runCount } from './http-load.js';

const exec = promisify(execFile);
const WORKERS = 8;

const { values: opts } = parseArgs({
  options: {
    machines: { type: 'string', default: '1000' },
    'ipmitool-nodes': { type: 'string', default: '1000' },
    json: { type: 'string' },
  },
});
const machines = Number(opts.machines);
const ipmitoolNodes = Math.min(machines, Number(opts['ipmitool-nodes']));

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** CPU seconds (user + system) a process has used. */
async function cpuSeconds(pid: number): Promise<number> {
  const info = await procInfo(pid);
  if (!info) throw new Error(`process ${pid} is gone: no CPU time to read`);
  return info.cpuTicks / 100;
}

async function startFleet(count: number, dir: string): Promise<{ child: ChildServer; inventory: InventoryEntry[] }> {
  const inventoryFile = path.join(dir, `inventory-${count}.json`);
  const child = await spawnServer(
    ['bin/ingot.js', 'bmc', '--simulate', String(count), '--redfish-port', '0', '--ipmi-port-base', '0',
      '--disk-dir', path.join(dir, `disks-${count}`), '--inventory', inventoryFile, '--log-level', 'warn'],
    /ingot bmc: .*Redfish at (\S+);/,
    60_000,
  );
  return { child, inventory: JSON.parse(await readFile(inventoryFile, 'utf8')) as InventoryEntry[] };
}

interface Sweep {
  ms: number;
  emulatorCpuS: number;
  conductorCpuS: number;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ingot-bench-power-'));
  const children: ChildServer[] = [];
  const figures: Record<string, unknown>[] = [];
  try {
    log(`power sync: ${machines} Redfish + ${machines} IPMI emulated machines (ingot bmc, another process)`);
    const small = await startFleet(1, dir);
    children.push(small.child);
    await new Promise((r) => setTimeout(r, 1000));
    const base = memoryMiB(small.child.pid).rss;
    await small.child.stop();
    const fleet = await startFleet(machines, dir);
    children.push(fleet.child);

    const store = await openStore({ dataDir: path.join(dir, 'db') });
    // NOTE: every emulated Redfish system sits behind one service (one host:port), which real BMCs do
    // not: allow the sweep as many requests at once to it as it has workers, or the per-BMC limits
    // (right for a real BMC) would measure the limit, not the client.
    const conductor = createConductor({
      store,
      logger: silentLogger(),
      config: { hostname: 'bench', sync_power_state_workers: WORKERS, sync_power_state_per_bmc: WORKERS },
      drivers: { redfish: { max_concurrent_requests_per_bmc: WORKERS } },
      periodics: false,
    });
    await conductor.start();
    try {
      for (const driver of ['redfish', 'ipmi'] as const) {
        for (const e of fleet.inventory) {
          await store.nodes.create({ driver, name: `${driver}-${e.name}`, driver_info: driverInfoFor(e, driver), provision_state: 'manageable', power_state: null });
        }
      }
      // The first sweep of a driver's nodes logs in to every BMC and records every power state; the next
      // one is the steady state: sessions reused, nothing changed.
      const sweep = async (driver: 'redfish' | 'ipmi', first: boolean): Promise<Sweep> => {
        if (first) {
          // Only this driver's nodes take part: the other half waits in maintenance.
          const other = driver === 'redfish' ? 'ipmi' : 'redfish';
          for (const n of await store.nodes.list({ driver: other }, { limit: machines })) await store.nodes.update(n.uuid, { maintenance: true });
          for (const n of await store.nodes.list({ driver }, { limit: machines })) await store.nodes.update(n.uuid, { maintenance: false });
        }
        const emu0 = await cpuSeconds(fleet.child.pid);
        const cpu0 = process.cpuUsage();
        const t0 = performance.now();
        const changed = await syncPowerStatesOnce(conductor.context);
        const ms = performance.now() - t0;
        const cpu = process.cpuUsage(cpu0);
        if (changed.length !== (first ? machines : 0)) throw new Error(`${driver} sweep recorded ${changed.length} power states, expected ${first ? machines : 0}`);
        return { ms, emulatorCpuS: (await cpuSeconds(fleet.child.pid)) - emu0, conductorCpuS: (cpu.user + cpu.system) / 1e6 };
      };
      for (const driver of ['redfish', 'ipmi'] as const) {
        const cold = await sweep(driver, true);
        // Sweeps are a minute apart in service: let the IPMI client's per-BMC command spacing pass.
        await new Promise((r) => setTimeout(r, 1500));
        const warm = await sweep(driver, false);
        for (const [label, s] of [['first sweep (logins)', cold], ['next sweep (sessions reused)', warm]] as const) {
          figures.push({ name: `${driver} power sync, ${label}`, machines, seconds: s.ms / 1000, goal_s: 5, conductor_cpu_s: s.conductorCpuS, emulator_cpu_s: s.emulatorCpuS });
          log(`${driver.padEnd(8)} ${label.padEnd(30)} ${(s.ms / 1000).toFixed(2)} s for ${machines} machines (goal <= 5 s); CPU: conductor ${s.conductorCpuS.toFixed(2)} s, emulator ${s.emulatorCpuS.toFixed(2)} s`);
        }
      }
    } finally {
      await conductor.stop({ timeoutMs: 2000 });
      await store.close();
    }

    // Ironic's way: one ipmitool process per node (`ipmitool … power status`), WORKERS at once.
    const sample = fleet.inventory.slice(0, ipmitoolNodes);
    const emu0 = await cpuSeconds(fleet.child.pid);
    const t0 = performance.now();
    await runCount(sample.length, WORKERS, async (i) => {
      const e = sample[i] as InventoryEntry;
      const { stdout } = await exec('ipmitool', ['-I', 'lanplus', '-C', '17', '-H', e.ipmi_address, '-p', String(e.ipmi_port), '-U', e.username, '-P', e.password, 'power', 'status']);
      if (!/Chassis Power is/.test(stdout)) throw new Error(`ipmitool: ${stdout}`);
    });
    const perNodeMs = (performance.now() - t0) / sample.length;
    const ipmitoolS = (perNodeMs * machines) / 1000;
    const emuCpu = (await cpuSeconds(fleet.child.pid)) - emu0;
    const native = figures.find((f) => f.name === 'ipmi power sync, next sweep (sessions reused)') as { seconds: number };
    figures.push({ name: 'ipmitool per node (Ironic ipmitool driver)', machines, seconds: ipmitoolS, measured_nodes: sample.length, emulator_cpu_s: emuCpu, speedup_native: ipmitoolS / native.seconds, goal_speedup: 10 });
    log(`ipmitool one process per node, ${WORKERS} at once: ${ipmitoolS.toFixed(2)} s for ${machines} machines${sample.length < machines ? ` (measured on ${sample.length})` : ''}; Ingot's native client is ${(ipmitoolS / native.seconds).toFixed(1)}x faster (goal >= 10x)`);

    await new Promise((r) => setTimeout(r, 1000));
    const mem = memoryMiB(fleet.child.pid).rss;
    const perMachineKiB = ((mem - base) * 1024) / Math.max(1, machines - 1);
    figures.push({ name: 'memory per emulated machine', kib: perMachineKiB, emulator_rss_mib: mem, one_machine_rss_mib: base });
    log(`memory per emulated machine: ${perMachineKiB.toFixed(0)} KiB (ingot bmc RSS ${mem.toFixed(0)} MiB with ${machines}, ${base.toFixed(0)} MiB with 1)`);
    if (opts.json) await writeFile(opts.json, `${JSON.stringify({ at: new Date().toISOString(), node: process.version, figures }, null, 2)}\n`);
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
