/**
 * A running emulated fleet: the machines (simulated or QEMU), one Redfish service for all of them and
 * one IPMI endpoint per machine, plus the inventory that tells how to reach each. This is what
 * `ingot bmc` runs and what tests start in-process.
 */
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../shared/logger.js';
import { seededRandom } from '../shared/seeded-random.js';
import type { MachineSpec } from './fleet-spec.js';
import { attachSimulatedAgents } from './agent-boot.js';
import type { InventoryEntry } from './inventory.js';
import { startIpmiServer } from './ipmi/server.js';
import type { Machine } from './machine.js';
import { simulatedProfile } from './profiles.js';
import { qemuMachine } from './qemu/machine.js';
import { startRedfishEmulator } from './redfish/emulator.js';
import { simulatedMachine } from './simulated.js';

export interface FleetOptions {
  machines: readonly MachineSpec[];
  /** Address the BMC endpoints listen on and the inventory names. */
  host: string;
  /** Port of the Redfish service (0: any free port). */
  redfishPort: number;
  /** Machine i answers IPMI on `ipmiPortBase + i` (0: any free ports). */
  ipmiPortBase: number;
  /** Default credentials of machines that declare none. */
  username: string;
  password: string;
  /** Where the disk files live (created if missing). */
  diskDir: string;
  /** Serve Redfish over HTTPS with a self-signed certificate. */
  tls?: boolean;
  /** Ingot's API: simulated machines that boot from the network run the agent against it (without `bootUrl`). */
  ingotUrl?: string;
  /**
   * Ingot's HTTP boot server: simulated machines that boot from the network fetch their iPXE script and
   * images there and run the agent its kernel parameters ask for (see agent-boot.ts).
   */
  bootUrl?: string;
  logger?: Logger;
  /**
   * Seed of the random draws of the `drop_rate` and `error_rate` faults: the same seed drops the same
   * packets and fails the same requests of a run. Unseeded (`Math.random`) when absent.
   */
  faultSeed?: number;
}

export interface Fleet {
  readonly machines: readonly Machine[];
  readonly inventory: readonly InventoryEntry[];
  readonly redfishUrl: string;
  /** PEM of the Redfish service's certificate when it serves HTTPS. */
  readonly certificate?: string;
  /** Stops the endpoints and every machine (QEMU processes end). */
  close(): Promise<void>;
}

/** Creates `file` as a sparse file of `bytes` unless it exists; returns its path. */
async function sparseDisk(file: string, bytes: number): Promise<string> {
  const handle = await open(file, 'a');
  try {
    if ((await handle.stat()).size === 0) await handle.truncate(bytes);
  } finally {
    await handle.close();
  }
  return file;
}

const GIB = 1024 ** 3;

async function buildMachine(spec: MachineSpec, index: number, opts: FleetOptions): Promise<{ machine: Machine; disk: string; consoleLog?: string }> {
  const username = spec.username ?? opts.username;
  const password = spec.password ?? opts.password;
  if (spec.backend === 'simulated') {
    const profile = simulatedProfile(spec.profile_index ?? index, spec.name);
    const first = profile.disks[0];
    const disk = await sparseDisk(path.join(opts.diskDir, `${spec.name}.img`), first ? first.size_bytes : 8 * GIB);
    return { machine: simulatedMachine({ name: spec.name, profile, username, password, faults: spec.faults }), disk };
  }
  const workDir = path.join(opts.diskDir, spec.name);
  await mkdir(workDir, { recursive: true });
  const disk = path.join(opts.diskDir, `${spec.name}.img`);
  const machine = await qemuMachine({
    name: spec.name,
    username,
    password,
    workDir,
    disk: { path: disk, sizeBytes: Math.round((spec.disk_gib ?? 4) * GIB) },
    memoryMiB: spec.memory_mib ?? 512,
    cpus: spec.cpus ?? 1,
    nics: spec.nics ?? [],
    bootMode: spec.boot_mode ?? 'bios',
    accel: spec.accel ?? 'tcg',
    extraArgs: spec.extra_args ?? [],
    faults: spec.faults,
  });
  return { machine, disk, consoleLog: machine.paths.serialLog };
}

/** Starts the machines and their BMC endpoints; on any failure, stops what was started. */
export async function startFleet(opts: FleetOptions): Promise<Fleet> {
  await mkdir(opts.diskDir, { recursive: true });
  const machines: Machine[] = [];
  const disks: string[] = [];
  const consoleLogs: (string | undefined)[] = [];
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const c of closers.splice(0).reverse()) await c().catch(() => undefined);
    await Promise.allSettled(machines.map((m) => m.close()));
  };
  try {
    for (const [i, spec] of opts.machines.entries()) {
      const built = await buildMachine(spec, i, opts);
      machines.push(built.machine);
      disks.push(built.disk);
      consoleLogs.push(built.consoleLog);
    }
    // One sequence each, so that Redfish traffic does not shift which IPMI packets are lost.
    const random = (stream: number) => (opts.faultSeed === undefined ? {} : { random: seededRandom(opts.faultSeed * 2 + stream) });
    const redfish = await startRedfishEmulator({ host: opts.host, port: opts.redfishPort, machines, tls: opts.tls ? 'self-signed' : false, logger: opts.logger, ...random(0) });
    closers.push(() => redfish.close());
    const ipmi = await startIpmiServer({ host: opts.host, machines, mode: { kind: 'port-per-machine', portBase: opts.ipmiPortBase }, ...random(1) });
    closers.push(() => ipmi.close());
    const inventory = machines.map((m, i): InventoryEntry => ({
      name: m.name,
      redfish_address: redfish.url,
      redfish_system_id: `/redfish/v1/Systems/${m.name}`,
      ipmi_address: opts.host,
      ipmi_port: ipmi.ports.get(m.name) as number,
      username: m.username,
      password: m.password,
      macs: m.profile.nics.map((n) => n.mac),
      disk: disks[i] as string,
      ...(consoleLogs[i] ? { console_log: consoleLogs[i] } : {}),
    }));
    if (opts.ingotUrl || opts.bootUrl) {
      const agents = new AbortController();
      const ipmiHost = new Map(inventory.map((e) => [e.name, e.ipmi_address]));
      // The disk file stands for the profile's first disk (see buildMachine).
      const diskFiles = new Map(machines.map((m, i) => [m.name, m.profile.disks[0] ? { [m.profile.disks[0].name]: disks[i] as string } : {}]));
      const detach = attachSimulatedAgents(machines, {
        ingotUrl: opts.ingotUrl,
        bootUrl: opts.bootUrl,
        bmcAddressOf: (m) => ipmiHost.get(m.name) ?? null,
        disksOf: (m) => diskFiles.get(m.name) ?? {},
        logger: opts.logger,
        signal: agents.signal,
      });
      closers.push(async () => {
        agents.abort();
        await detach();
      });
    }
    return { machines, inventory, redfishUrl: redfish.url, certificate: redfish.certificate, close };
  } catch (err) {
    await close();
    throw err;
  }
}
