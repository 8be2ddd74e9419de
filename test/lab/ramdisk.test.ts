/**
 * The deploy ramdisk for real: built from Debian's kernel package, the host's Node and the freshly
 * bundled agent; built twice to the same bytes and then answered from its cache; booted in QEMU
 * (TCG, direct kernel boot, user-mode networking where the guest reaches the host's loopback at
 * 10.0.2.2), where the agent posts the VM's inventory to a server in this test and the ramdisk powers
 * off when the agent is done — and on the ACPI power button while the agent still runs.
 *
 * The build cache is persistent, `os.tmpdir()/ingot-lab-cache` (shared with test-image.test.ts and
 * manual builds): the first run downloads Debian's kernel package (~70 MB) and unpacks it (~10 s);
 * later runs reuse it. The reproducibility check always rebuilds (`force`) and compares with what the
 * cache held, so it compares builds made at different times in different directories.
 *
 * Needs apt package lists, busybox-static, kmod, util-linux and qemu-system-x86 (fails with the
 * install command otherwise).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildRamdisk, RAMDISK_KERNEL_PARAMS, ramdiskInputsHash, type RamdiskBuild } from '../../src/lab/ramdisk/index.js';
import type { Inventory } from '../../src/protocol/agent/inventory.js';
import { freePort, REPO_ROOT } from '../support/server.js';
import { type Guest, requireQemu, startGuest } from './qemu-guest.js';

const CACHE = path.join(os.tmpdir(), 'ingot-lab-cache');
const GIB = 1024 * 1024 * 1024;

let work: string;
let agentBundle: string;
let first: Promise<RamdiskBuild> | undefined;
const guests: Guest[] = [];
const servers: http.Server[] = [];
const logLines: string[] = [];
const log = (line: string) => {
  logLines.push(line);
  if (process.env.INGOT_TEST_LAB_LOG) process.stderr.write(`${line}\n`);
};

/** The ramdisk of this run (built or from the cache), once. */
function ramdisk(): Promise<RamdiskBuild> {
  first ??= buildRamdisk({ outDir: path.join(work, 'out'), cacheDir: CACHE, agentBundle, log });
  return first;
}

const sha256 = async (file: string) => createHash('sha256').update(await readFile(file)).digest('hex');

function randomMac(): string {
  const b = createHash('sha256').update(`${process.pid}-${Date.now()}-${Math.random()}`).digest();
  return `52:54:00:${[b[0], b[1], b[2]].map((x) => x!.toString(16).padStart(2, '0')).join(':')}`;
}

beforeAll(async () => {
  requireQemu();
  work = await mkdtemp(path.join(os.tmpdir(), 'ingot-ramdisk-test-'));
  agentBundle = path.join(work, 'ingot-agent.cjs');
  await promisify(execFile)(process.execPath, ['scripts/bundle-agent.mjs', '--outfile', agentBundle], { cwd: REPO_ROOT, timeout: 60_000 });
}, 90_000);

afterEach(async () => {
  for (const g of guests.splice(0)) await g.kill();
  for (const s of servers.splice(0)) await new Promise<void>((resolve) => s.close(() => resolve()));
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('deploy ramdisk', () => {
  it('builds the same bytes again and then answers from its cache', async () => {
    const a = await ramdisk();
    const [initramfsA, kernelA] = [await sha256(a.initramfs), await sha256(a.kernel)];
    expect(a.kernelRelease).toMatch(/^\d+\.\d+\.\d+-\d+-amd64$/);
    // An lz4 stream in the legacy frame format, the one the kernel reads (CONFIG_RD_LZ4): magic 0x184c2102.
    expect((await readFile(a.initramfs)).readUInt32LE(0)).toBe(0x184c2102);

    const b = await buildRamdisk({ outDir: path.join(work, 'rebuilt'), cacheDir: CACHE, agentBundle, log, force: true });
    expect(b.cached).toBe(false);
    expect(b.inputsHash).toBe(a.inputsHash);
    expect(await sha256(b.initramfs)).toBe(initramfsA);
    expect(await sha256(b.kernel)).toBe(kernelA);

    const c = await buildRamdisk({ outDir: path.join(work, 'cached'), cacheDir: CACHE, agentBundle, log });
    expect(c.cached).toBe(true);
    expect(c.inputsHash).toBe(a.inputsHash);
    expect(await sha256(c.initramfs)).toBe(initramfsA);
    log(`ramdisk: initramfs ${b.sizeBytes} bytes (${b.rawBytes} unpacked), kernel ${b.kernelBytes} bytes; rebuild ${b.durationMs} ms, cached ${c.durationMs} ms`);

    // Another agent is another ramdisk.
    const other = path.join(work, 'other-agent.cjs');
    await writeFile(other, `${await readFile(agentBundle, 'utf8')}\n// changed\n`);
    expect(await ramdiskInputsHash({ agentBundle: other })).not.toBe(a.inputsHash);
    expect(await ramdiskInputsHash({ agentBundle })).toBe(a.inputsHash);
  }, 300_000);

  it('names a kernel package apt does not know', async () => {
    await expect(buildRamdisk({ outDir: path.join(work, 'never'), cacheDir: path.join(work, 'never-cache'), agentBundle, kernelPackage: 'linux-image-no-such-kernel' })).rejects.toThrow(
      /apt-cache does not know linux-image-no-such-kernel: run `apt-get update`/,
    );
  }, 60_000);

  it('boots in QEMU, posts the VM’s inventory and powers off when the agent is done', async () => {
    const built = await ramdisk();
    let inventory: Inventory | undefined;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.method === 'POST' && req.url === '/v1/continue_inspection') {
          inventory = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { inventory: Inventory }).inventory;
          res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"uuid":"9a3e5c2e-5a0c-4b6b-9d0e-2d4a3c1b0f11"}');
        } else res.writeHead(404).end();
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const disk = path.join(work, 'disk.img');
    await writeFile(disk, '');
    await truncate(disk, GIB);
    const mac = randomMac();

    const started = Date.now();
    const guest = startGuest([
      '-m', '768', '-smp', '2', '-nographic', '-no-reboot',
      '-kernel', built.kernel, '-initrd', built.initramfs,
      '-append', `${RAMDISK_KERNEL_PARAMS} ipa-inspection-callback-url=http://10.0.2.2:${port}/v1/continue_inspection`,
      '-nic', `user,model=virtio-net-pci,mac=${mac}`,
      '-drive', `file=${disk},if=none,id=disk0,format=raw`,
      '-device', 'virtio-blk-pci,drive=disk0,serial=INGOT-LAB-DISK0',
    ]);
    guests.push(guest);
    const code = await guest.waitExit(150_000);
    log(`ramdisk boot → inventory → power off: ${Date.now() - started} ms`);
    const console = guest.console();
    expect(code, console.slice(-3000)).toBe(0);
    expect(console).toMatch(/ingot-ramdisk: \[[\d.]+\] agent exited with status 0/);
    expect(console).toContain('reboot: Power down');

    expect(inventory, console.slice(-3000)).toBeDefined();
    const inv = inventory!;
    expect(inv.cpu.count).toBe(2);
    expect(inv.cpu.architecture).toBe('x86_64');
    expect(inv.memory.physical_mb).toBe(768);
    expect(inv.memory.total).toBeGreaterThan(600 * 1024 * 1024);
    expect(inv.memory.total).toBeLessThanOrEqual(768 * 1024 * 1024);
    // The serial comes through lsblk from the udev database /init writes (the ramdisk has no udev).
    expect(inv.disks).toEqual([expect.objectContaining({ name: '/dev/vda', size: GIB, serial: 'INGOT-LAB-DISK0' })]);
    const nic = inv.interfaces.find((i) => i.mac_address === mac);
    expect(nic, JSON.stringify(inv.interfaces)).toMatchObject({ name: 'eth0', ipv4_address: '10.0.2.15' });
    expect(inv.boot.current_boot_mode).toBe('bios');
    expect(inv.system_vendor.manufacturer).toBe('QEMU');
  }, 180_000);

  it('powers off on the ACPI power button while the agent runs', async () => {
    const built = await ramdisk();
    // Nothing listens there: the agent keeps retrying its lookup until the button is pressed.
    const closed = await freePort();
    const qmpSocket = path.join(work, 'qmp.sock');
    const guest = startGuest([
      '-m', '768', '-nographic', '-no-reboot',
      '-kernel', built.kernel, '-initrd', built.initramfs,
      '-append', `${RAMDISK_KERNEL_PARAMS} ipa-api-url=http://10.0.2.2:${closed} ipa-lookup-interval=1`,
      '-nic', 'user,model=virtio-net-pci',
    ], { qmpSocket });
    guests.push(guest);
    await guest.waitFor(/ingot-agent: lookup at http:\/\/10\.0\.2\.2:\d+ failed/, 150_000);
    await guest.qmp('system_powerdown');
    expect(await guest.waitExit(60_000)).toBe(0);
    expect(guest.console()).toContain('ingot-ramdisk: power button pressed');
    expect(guest.console()).toMatch(/ingot-ramdisk: \[[\d.]+\] poweroff requested/);
  }, 240_000);
});
