/**
 * `labUp` / `labStatus` / `labDown` for real: a network namespace with a bridge and taps, the built
 * `ingot serve` and `ingot bmc` running inside it, two QEMU VMs enrolled through the API (one Redfish,
 * one IPMI) and managed through their emulated BMCs, both network-booted by Ingot (agent inspection:
 * boot device pxe and power on through the BMC): each gets a DHCP lease from the dnsmasq Ingot manages
 * on the bridge and iPXE fetches `boot.ipxe`, its per-MAC script and the deploy "kernel" over HTTP. The
 * "kernel" is a tiny iPXE script that prints a marker, so the serial log proves the whole chain without
 * a real kernel. Then the lab is removed without a trace — also after `ingot serve` and `ingot bmc`
 * were killed with SIGKILL, leaving a running QEMU and dnsmasq orphaned.
 *
 * Needs root, iproute2, QEMU and dnsmasq (fails with install hints otherwise) and the built dist/.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { labDown, labStatus, labUp, requireLabTools, type Lab, type LabState } from '../../src/lab/qemu-lab/index.js';
import { hostVethName } from '../../src/lab/qemu-lab/layout.js';
import { procInfo } from '../../src/lab/qemu-lab/processes.js';
import { REPO_ROOT } from '../support/server.js';
import { hostLinkExists, ipOut, labProcesses, namespaces } from './lab-host.js';

const NS = 'ingot-lab-test';
const INGOT = [process.execPath, path.join(REPO_ROOT, 'bin', 'ingot.js')];
const MARKER = 'INGOT-LAB-DUMMY-KERNEL';
const API = 'http://10.77.255.2:6385';

let base: string | undefined;
let kernel: string;
let initramfs: string;
const labDirs: string[] = [];
const lines: string[] = [];
const log = (line: string) => {
  lines.push(line);
  if (process.env.INGOT_TEST_LAB_LOG) process.stderr.write(`${line}\n`);
};

async function call<T = Record<string, unknown>>(method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(`${API}${url}`, {
    method,
    headers: { 'x-openstack-ironic-api-version': 'latest', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: HTTP ${res.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined | false>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}


async function newLabDir(name: string): Promise<string> {
  const dir = path.join(base!, name);
  labDirs.push(dir);
  return dir;
}

/** Everything labDown must leave behind: nothing. */
async function expectGone(state: LabState, pids: number[]): Promise<void> {
  expect(namespaces()).not.toContain(state.namespace);
  expect(hostLinkExists(state.veth.host)).toBe(false);
  expect(ipOut('route', 'show', state.addresses.subnet).trim()).toBe('');
  for (const pid of pids) expect(await procInfo(pid), `PID ${pid} still runs`).toBeUndefined();
  expect(await labProcesses(state.dir)).toEqual([]);
  expect(existsSync(state.dir)).toBe(false);
}

beforeAll(async () => {
  requireLabTools();
  if (!existsSync(path.join(REPO_ROOT, 'dist', 'ingot.mjs'))) throw new Error('dist/ingot.mjs is missing: run `npm run build` first');
  // A crashed earlier run of this file may have left its namespace behind.
  if (namespaces().includes(NS)) await labDown({ dir: path.join(tmpdir(), 'ingot-lab-test-leftover'), namespace: NS, force: true });
  base = await mkdtemp(path.join(tmpdir(), 'ingot-lab-test-'));
  kernel = path.join(base, 'kernel');
  initramfs = path.join(base, 'initramfs');
  // iPXE loads an iPXE script as a "kernel" and runs it at `boot`: the marker on the serial console
  // proves the whole chain (DHCP, boot.ipxe, per-MAC script, kernel and initrd over HTTP).
  await writeFile(kernel, `#!ipxe\necho ${MARKER} booted\n`);
  await writeFile(initramfs, Buffer.alloc(4096, 7));
}, 30_000);

/** Removes every lab of this file, whatever state a failed test left it in. */
async function downAll(): Promise<void> {
  for (const dir of labDirs.splice(0)) {
    await labDown({ dir, namespace: NS, force: true, graceMs: 5000 }).catch((err: unknown) => process.stderr.write(`labDown ${dir}: ${String(err)}\n`));
  }
}

// After each test, so a failed one does not fail the next; after all as the last resort.
afterEach(downAll, 120_000);
afterAll(async () => {
  await downAll();
  if (base) await rm(base, { recursive: true, force: true });
}, 120_000);

describe('ingot lab', () => {
  it('brings up a namespace lab whose VMs are managed through their BMCs and PXE-boot from Ingot, then removes it all', async () => {
    const dir = await newLabDir('lab');
    const t0 = Date.now();
    const lab: Lab = await labUp({ dir, ingot: INGOT, kernel, initramfs, machines: 2, namespace: NS, log, startTimeoutMs: 60_000 });
    const upS = (Date.now() - t0) / 1000;
    const { state } = lab;

    // The network.
    expect(namespaces()).toContain(NS);
    const bridge = ipOut('-n', NS, '-d', 'link', 'show', 'dev', 'br-lab');
    expect(bridge).toMatch(/bridge forward_delay 0 .*stp_state 0/);
    expect(ipOut('-n', NS, '-o', 'addr', 'show', 'dev', 'br-lab')).toMatch(/inet 10\.77\.0\.1\/24[\s\S]*inet6 fd77::1\/64/);
    for (const tap of ['tap1', 'tap2']) expect(ipOut('-n', NS, '-d', 'link', 'show', 'dev', tap)).toMatch(/master br-lab[\s\S]*tun type tap/);
    expect(state.veth.host).toBe(hostVethName(NS));
    expect(ipOut('-o', 'addr', 'show', 'dev', state.veth.host)).toContain('inet 10.77.255.1/30');

    // Ingot answers from the host through the uplink.
    const root = await call<{ id: string; media_types: unknown[] }>('GET', '/v1');
    expect(root.id).toBe('v1');
    expect(state.urls.api).toBe(API);

    // Both machines enrolled as asked, with their ports.
    expect(state.nodes.map((n) => [n.name, n.driver, n.macs])).toEqual([['lab-1', 'redfish', ['52:54:00:77:00:01']], ['lab-2', 'ipmi', ['52:54:00:77:00:02']]]);
    for (const n of state.nodes) {
      const node = await call<Record<string, unknown> & { driver_info: Record<string, unknown> }>('GET', `/v1/nodes/${n.uuid}`);
      expect(node).toMatchObject({ name: n.name, driver: n.driver, provision_state: 'enroll', boot_interface: 'ipxe', inspect_interface: 'agent' });
      expect(node.driver_info).toMatchObject({
        deploy_kernel: `file://${state.files.kernel}`, deploy_ramdisk: `file://${state.files.initramfs}`, kernel_append_params: 'console=ttyS0 no_timer_check pci=noacpi',
      });
      expect(node.driver_info[n.driver === 'redfish' ? 'redfish_address' : 'ipmi_address']).toMatch(/10\.77\.0\.1/);
      expect(node.driver_info.console_log_file).toBe(path.join(state.files.vm_dir, n.name, 'serial.log'));
      const ports = await call<{ ports: { address: string; pxe_enabled: boolean }[] }>('GET', `/v1/ports?node=${n.uuid}&detail=true`);
      expect(ports.ports.map((p) => [p.address, p.pxe_enabled])).toEqual([[n.macs[0], true]]);
    }
    const status = await labStatus(dir);
    expect(status.namespaceExists).toBe(true);
    expect(status.processes.map((p) => [p.role, p.alive])).toEqual([['serve', true], ['bmc', true]]);
    expect(status.nodes.map((n) => n.provision_state)).toEqual(['enroll', 'enroll']);

    // manage: Ingot reads power and validates management through the emulated Redfish and IPMI BMCs.
    const t1 = Date.now();
    for (const n of state.nodes) await call('PUT', `/v1/nodes/${n.uuid}/states/provision`, { target: 'manage' });
    for (const n of state.nodes) {
      const node = await until(`${n.name} manageable`, 60_000, async () => {
        const v = await call<{ provision_state: string; reservation: string | null; last_error: string | null }>('GET', `/v1/nodes/${n.uuid}`);
        if (v.provision_state.endsWith('failed')) throw new Error(`${n.name}: ${v.provision_state}: ${v.last_error}`);
        return v.provision_state === 'manageable' && v.reservation === null ? v : undefined;
      });
      expect(node).toMatchObject({ provision_state: 'manageable', power_state: 'power off' });
    }
    const manageS = (Date.now() - t1) / 1000;

    // Inspection network-boots both VMs: boot device pxe and power on through each BMC.
    const t2 = Date.now();
    for (const n of state.nodes) await call('PUT', `/v1/nodes/${n.uuid}/states/provision`, { target: 'inspect' });
    const leases = path.join(state.files.data_dir, 'dhcp', 'dnsmasq.leases');
    await until('a DHCP lease for both VMs from the dnsmasq on the bridge', 90_000, async () => {
      const text = await readFile(leases, 'utf8').catch(() => '');
      return state.nodes.every((n) => new RegExp(`${n.macs[0]} 10\\.77\\.0\\.1\\d\\d `).test(text));
    });
    const leaseS = (Date.now() - t2) / 1000;
    const serials = await until('iPXE fetching boot.ipxe, the per-MAC script and the kernel, and running it, on both VMs', 90_000, async () => {
      const logs = await Promise.all(state.nodes.map((n) => readFile(n.serial_log, 'utf8').catch(() => '')));
      return logs.every((l) => l.includes(`${MARKER} booted`)) ? logs : undefined;
    });
    const bootS = (Date.now() - t2) / 1000;
    state.nodes.forEach((n, i) => {
      const serial = serials[i]!;
      expect(serial).toContain('http://10.77.0.1:8088/boot.ipxe');
      expect(serial).toContain(`pxelinux.cfg/${n.macs[0]!.replace(/:/g, '-')}`);
      expect(serial).toContain(`http://10.77.0.1:8088/${n.uuid}/`);
    });
    const script = await readFile(path.join(state.files.data_dir, 'httpboot', 'pxelinux.cfg', '52-54-00-77-00-01'), 'utf8');
    expect(script).toMatch(/kernel http:\/\/10\.77\.0\.1:8088\/\S+ .*console=ttyS0 no_timer_check pci=noacpi ipa-api-url=http:\/\/10\.77\.0\.1:6385 /);
    const running = await labProcesses(state.dir);
    expect(running.filter((p) => /qemu-system/.test(p.cmdline))).toHaveLength(2);
    expect(running.filter((p) => /dnsmasq/.test(p.cmdline))).toHaveLength(1);

    // Down: every process (QEMU and dnsmasq included), the namespace, the uplink and the files.
    const t3 = Date.now();
    const report = await labDown({ dir, log });
    const downS = (Date.now() - t3) / 1000;
    expect(report.stopped.slice(0, 2).map((s) => [s.label, s.result])).toEqual([['ingot serve', 'SIGTERM'], ['ingot bmc', 'SIGTERM']]);
    expect(report).toMatchObject({ namespaceDeleted: true, hostVethDeleted: false });
    expect(report.warnings).toEqual([]);
    await expectGone(state, [...state.processes.map((p) => p.pid), ...running.map((p) => p.pid)]);
    expect(await labDown({ dir, namespace: NS, log }), 'a second labDown finds nothing').toMatchObject({ hadState: false, stopped: [], namespaceDeleted: false, removedFiles: [] });
    process.stderr.write(`lab timings: up ${upS.toFixed(1)} s, manage ${manageS.toFixed(1)} s, inspect → both leases ${leaseS.toFixed(1)} s, → both iPXE chains done ${bootS.toFixed(1)} s, down ${downS.toFixed(1)} s\n`);
  }, 300_000);

  it('removes a lab whose ingot serve and ingot bmc were killed with SIGKILL, with their QEMU and dnsmasq orphaned', async () => {
    const dir = await newLabDir('crashed');
    const lab = await labUp({ dir, ingot: INGOT, kernel, initramfs, machines: 1, namespace: NS, manage: true, log, startTimeoutMs: 60_000 });
    const { state } = lab;
    const node = state.nodes[0]!;
    expect((await labStatus(dir)).nodes[0]).toMatchObject({ name: 'lab-1', provision_state: 'manageable' });
    await call('PUT', `/v1/nodes/${node.uuid}/states/power`, { target: 'power on' });
    const qemu = await until('QEMU running', 30_000, async () => (await labProcesses(state.dir)).find((p) => /qemu-system/.test(p.cmdline)));
    const dnsmasq = (await labProcesses(state.dir)).find((p) => /dnsmasq/.test(p.cmdline));
    expect(dnsmasq).toBeDefined();

    for (const p of state.processes) process.kill(p.pid, 'SIGKILL');
    const exited = await lab.exited;
    expect(exited.signal).toBe('SIGKILL');
    await until('ingot serve and ingot bmc gone', 10_000, async () => (await Promise.all(state.processes.map((p) => procInfo(p.pid)))).every((i) => i === undefined));
    // Their children live on, orphaned: exactly what labDown must clean up.
    expect(await procInfo(qemu.pid)).toBeDefined();
    expect(await procInfo(dnsmasq!.pid)).toBeDefined();
    const status = await labStatus(dir);
    expect(status.processes.map((p) => p.alive)).toEqual([false, false]);
    expect(status.apiError).not.toBeNull();

    const report = await labDown({ dir, log, graceMs: 5000 });
    expect(report.stopped.slice(0, 2).map((s) => s.result)).toEqual(['gone', 'gone']);
    expect(report.stopped.slice(2).map((s) => s.pid).sort()).toEqual([qemu.pid, dnsmasq!.pid].sort());
    await expectGone(state, [...state.processes.map((p) => p.pid), qemu.pid, dnsmasq!.pid]);
  }, 180_000);

  it('refuses to start over an existing namespace, and removes a namespace without lab.json only with force', async () => {
    const dir = await newLabDir('orphan-namespace');
    execFileSync('ip', ['netns', 'add', NS]);
    await expect(labUp({ dir, ingot: INGOT, kernel, initramfs, namespace: NS, log })).rejects.toThrow(/run ingot lab down first/);
    expect(namespaces()).toContain(NS);
    await mkdir(dir, { recursive: true });
    await expect(labDown({ dir, namespace: NS, log })).rejects.toThrow(/--force/);
    const report = await labDown({ dir, namespace: NS, force: true, log });
    expect(report).toMatchObject({ hadState: false, namespaceDeleted: true });
    expect(namespaces()).not.toContain(NS);
    expect(existsSync(dir)).toBe(false);
  }, 60_000);

  it('removes what it created when a process does not come up', async () => {
    const dir = await newLabDir('broken');
    const broken = [process.execPath, '-e', 'process.exit(3)'];
    await expect(labUp({ dir, ingot: broken, kernel, initramfs, machines: 1, namespace: NS, log })).rejects.toThrow(/stopped before .*exit 3/);
    expect(namespaces()).not.toContain(NS);
    expect(hostLinkExists(hostVethName(NS))).toBe(false);
    expect(existsSync(dir)).toBe(false);
  }, 60_000);
});
