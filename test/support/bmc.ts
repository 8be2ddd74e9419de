/**
 * Starts the built `ingot bmc` as a child process with a temporary disk directory and reads back the
 * inventory it writes, for tests that enroll emulated machines in a running Ingot.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { InventoryEntry } from '../../src/bmc/inventory.js';
import { requireFreshBuild } from './build.js';
import { REPO_ROOT } from './server.js';

export interface RunningBmc {
  inventory: InventoryEntry[];
  /** The entry of machine `name` (throws when there is none). */
  machine(name: string): InventoryEntry;
  output(): string;
  /** SIGTERM, SIGKILL after 10 s; removes the temporary directory. Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Runs `ingot bmc` with `machines` (written to a machines file) and `args`, on free ports of 127.0.0.1.
 * The random faults (`drop_rate`, `error_rate`) draw from a fixed seed, so that each run loses the same
 * packets (`--fault-seed` in `args` chooses another).
 */
export async function startBmc(machines: unknown[], args: string[] = []): Promise<RunningBmc> {
  requireFreshBuild(REPO_ROOT);
  const dir = await mkdtemp(path.join(tmpdir(), 'ingot-bmc-'));
  const machinesFile = path.join(dir, 'machines.json');
  const inventoryFile = path.join(dir, 'inventory.json');
  await writeFile(machinesFile, JSON.stringify(machines));
  const proc = spawn(
    process.execPath,
    ['bin/ingot.js', 'bmc', '--machines', machinesFile, '--redfish-port', '0', '--ipmi-port-base', '0', '--inventory', inventoryFile, '--disk-dir', path.join(dir, 'disks'), '--log-level', process.env.INGOT_TEST_BMC_LOG ?? 'warn',
      ...(args.includes('--fault-seed') ? [] : ['--fault-seed', '1']), ...args],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const out: string[] = [];
  proc.stdout.on('data', (d: Buffer) => out.push(d.toString()));
  proc.stderr.on('data', (d: Buffer) => out.push(d.toString()));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`ingot bmc did not start within 20 s:\n${out.join('')}`)), 20_000);
      proc.stdout.on('data', () => {
        if (out.join('').includes('ingot bmc:')) {
          clearTimeout(timer);
          resolve();
        }
      });
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`ingot bmc exited (${proc.exitCode ?? proc.signalCode}):\n${out.join('')}`));
      });
    });
    const inventory = JSON.parse(await readFile(inventoryFile, 'utf8')) as InventoryEntry[];
    return {
      inventory,
      machine(name) {
        const entry = inventory.find((e) => e.name === name);
        if (!entry) throw new Error(`no machine ${name} in the inventory`);
        return entry;
      },
      output: () => out.join(''),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
