/**
 * `ingot bmc` as an operator runs it: the inventory it writes, a QEMU machine controlled through the
 * Redfish and IPMI endpoints it serves (read back with the real ipmitool and over plain HTTP), and clear
 * errors for bad command lines.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { InventoryEntry } from '../../src/bmc/inventory.js';
import { simulatedProfile } from '../../src/bmc/profiles.js';
import { startBmc, type RunningBmc } from '../support/bmc.js';
import { requireFreshBuild } from '../support/build.js';
import { REPO_ROOT } from '../support/server.js';

const run = promisify(execFile);
const started: RunningBmc[] = [];

afterAll(async () => {
  await Promise.all(started.map((b) => b.stop()));
});

async function redfish(entry: InventoryEntry, method = 'GET', body?: unknown): Promise<Record<string, unknown>> {
  const target = method === 'GET' ? entry.redfish_system_id : `${entry.redfish_system_id}/Actions/ComputerSystem.Reset`;
  const res = await fetch(`${entry.redfish_address}${target}`, {
    method,
    headers: { authorization: `Basic ${Buffer.from(`${entry.username}:${entry.password}`).toString('base64')}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status).toBeLessThan(300);
  return res.status === 204 ? {} : ((await res.json()) as Record<string, unknown>);
}

async function ipmitool(entry: InventoryEntry, ...args: string[]): Promise<string> {
  const { stdout } = await run('ipmitool', ['-I', 'lanplus', '-C', '3', '-H', entry.ipmi_address, '-p', String(entry.ipmi_port), '-U', entry.username, '-P', entry.password, ...args], { timeout: 30_000 });
  return stdout;
}

describe('ingot bmc', () => {
  it('writes an inventory that reaches every machine, simulated and QEMU, over Redfish and IPMI', async () => {
    if (!existsSync('/usr/bin/qemu-system-x86_64')) throw new Error('qemu-system-x86_64 is missing: apt-get install qemu-system-x86 qemu-utils');
    if (!existsSync('/usr/bin/ipmitool')) throw new Error('ipmitool is missing: apt-get install ipmitool');
    const bmc = await startBmc(
      [{ name: 'vm-0', backend: 'qemu', memory_mib: 256, disk_gib: 1, nics: [{ mac: '52:54:00:aa:00:01' }], username: 'root', password: 'calvin' }],
      ['--simulate', '2', '--name-prefix', 'node'],
    );
    started.push(bmc);
    expect(bmc.inventory.map((e) => e.name)).toEqual(['vm-0', 'node-0', 'node-1']);
    const sim = bmc.machine('node-1');
    expect(sim).toMatchObject({ username: 'admin', password: 'password', redfish_system_id: '/redfish/v1/Systems/node-1', ipmi_address: '127.0.0.1' });
    expect(sim.macs).toEqual(simulatedProfile(1, 'node-1').nics.map((n) => n.mac));
    expect(existsSync(sim.disk)).toBe(true);
    expect(new Set(bmc.inventory.map((e) => e.ipmi_port)).size).toBe(3);

    const vm = bmc.machine('vm-0');
    expect(vm.macs).toEqual(['52:54:00:aa:00:01']);
    expect(sim.console_log).toBeUndefined();
    expect(await redfish(vm)).toMatchObject({ PowerState: 'Off', MemorySummary: { TotalSystemMemoryGiB: 0.25 } });
    await redfish(vm, 'POST', { ResetType: 'On' });
    expect(await redfish(vm)).toMatchObject({ PowerState: 'On' });
    expect(await ipmitool(vm, 'power', 'status')).toMatch(/Chassis Power is on/);
    // The VM really runs: its firmware writes to the serial log next to its disk.
    const serial = path.join(path.dirname(vm.disk), 'vm-0', 'serial.log');
    expect(vm.console_log).toBe(serial);
    const deadline = Date.now() + 20_000;
    while (!/SeaBIOS/.test(existsSync(serial) ? await readFile(serial, 'utf8') : '') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await readFile(serial, 'utf8')).toMatch(/SeaBIOS/);
    await ipmitool(vm, 'power', 'off');
    expect(await redfish(vm)).toMatchObject({ PowerState: 'Off' });
    expect(await ipmitool(sim, 'power', 'status')).toMatch(/Chassis Power is off/);
  }, 90_000);

  it('refuses bad command lines with a message naming the flag', async () => {
    requireFreshBuild(REPO_ROOT);
    const bin = path.join(REPO_ROOT, 'bin', 'ingot.js');
    const fail = async (...args: string[]) => {
      const err = await run(process.execPath, [bin, 'bmc', ...args], { timeout: 20_000 }).then(() => null, (e: { stderr: string; code: number }) => e);
      expect(err).not.toBeNull();
      return (err as { stderr: string }).stderr;
    };
    expect(await fail()).toMatch(/--simulate N and\/or --machines FILE/);
    expect(await fail('--simulate', 'lots')).toMatch(/--simulate must be a whole number/);
    expect(await fail('--simulate', '2', '--redfish-port', '70000')).toMatch(/--redfish-port must be a port number/);
    expect(await fail('--simulate', '20', '--ipmi-port-base', '65530')).toMatch(/leaves no room for 20 machines/);
    expect(await fail('--simulate', '1', '--fault-seed', 'lucky')).toMatch(/--fault-seed must be a whole number/);
  }, 60_000);
});
