/**
 * The QEMU machine back-end against real QEMU under TCG. No guest OS: the proof of the boot order is
 * what SeaBIOS and the NIC's iPXE ROM print on the serial console, and two one-sector disks (a
 * 16-bit boot sector that writes a marker to COM1 and then powers off through ACPI, or reboots through
 * the keyboard controller) stand in for a guest that shuts down or reboots.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BootEvent } from '../../src/bmc/machine.js';
import { qemuMachine, type QemuMachine, type QemuMachineSpec } from '../../src/bmc/qemu/machine.js';

const MAC = '52:54:00:aa:00:01';
// What QEMU 7.2's SeaBIOS 1.16.2 and iPXE print on the serial console for each boot device.
const DISK_FIRST = 'Booting from Hard Disk...';
const DISK_EMPTY = 'Boot failed: not a bootable disk';
const NET_FIRST = 'Booting from ROM...';
const IPXE_BANNER = 'iPXE (http://ipxe.org)';

let machines: QemuMachine[] = [];
let dirs: string[] = [];

beforeAll(() => {
  try {
    execFileSync('qemu-system-x86_64', ['--version'], { stdio: 'pipe' });
  } catch (err) {
    throw new Error(`qemu-system-x86_64 is required for these tests: apt-get install qemu-system-x86 qemu-utils (${(err as Error).message})`);
  }
});

afterEach(async () => {
  const pids = machines.map((m) => m.pid()).filter((p): p is number => p !== null);
  await Promise.allSettled(machines.map((m) => m.close()));
  machines = [];
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
  for (const pid of pids) expect(alive(pid)).toBe(false);
});

/** True while a process with this PID exists and is a QEMU (PIDs wrap; check what it is). */
function alive(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('qemu-system');
  } catch {
    return false;
  }
}

/** A boot sector that writes `marker` to COM1 and then runs `tail`. */
function bootSector(marker: string, tail: number[]): Buffer {
  const code = [0xba, 0xf8, 0x03]; // mov dx, 0x3f8
  for (const c of Buffer.from(marker)) code.push(0xb0, c, 0xee); // mov al, c; out dx, al
  code.push(...tail);
  const sector = Buffer.alloc(1 << 20); // a 1 MiB disk
  Buffer.from(code).copy(sector);
  sector[510] = 0x55;
  sector[511] = 0xaa;
  return sector;
}
// NOTE: SeaBIOS puts the PIIX4 ACPI PM block at 0x600: writing SLP_EN (0x2000) to PM1a_CNT (0x604) is S5.
const POWER_OFF = [0xba, 0x04, 0x06, 0xb8, 0x00, 0x20, 0xef, 0xf4, 0xeb, 0xfd];
// Pulse the CPU reset line through the keyboard controller (out 0x64, 0xfe).
const REBOOT = [0xb0, 0xfe, 0xe6, 0x64, 0xf4, 0xeb, 0xfd];

function make(overrides: Partial<QemuMachineSpec> = {}, diskImage?: Buffer): QemuMachine {
  const workDir = mkdtempSync(path.join(tmpdir(), 'ingot-qemu-'));
  dirs.push(workDir);
  const disk = path.join(workDir, 'disk.raw');
  if (diskImage) writeFileSync(disk, diskImage);
  const m = qemuMachine({
    name: 'vm-0',
    username: 'admin',
    password: 'secret',
    workDir,
    disk: { path: disk, sizeBytes: diskImage?.length ?? 64 * 1024 * 1024 },
    memoryMiB: 128,
    nics: [{ mac: MAC }],
    ...overrides,
  });
  machines.push(m);
  return m;
}

function serial(m: QemuMachine): string {
  return existsSync(m.paths.serialLog) ? readFileSync(m.paths.serialLog, 'latin1') : '';
}

/** Waits until the serial log, from character `from` on, contains every one of `needles`; returns that part. */
async function serialShows(m: QemuMachine, needles: string[], from = 0, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = serial(m).slice(from);
    if (needles.every((n) => text.includes(n))) return text;
    if (Date.now() > deadline) throw new Error(`serial log never showed ${JSON.stringify(needles)}; it has:\n${text.slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('QEMU machine', () => {
  it('boots the network first with a pxe override; a reset consumes the one-time override and boots the disk first', { timeout: 60_000 }, async () => {
    const m = make();
    const boots: BootEvent['device'][] = [];
    m.onBoot((e) => boots.push(e.device));
    m.setBootOverride({ device: 'pxe', persistence: 'once' });
    expect(await m.power()).toBe('off');

    await m.act('on');
    expect(await m.power()).toBe('on');
    expect(await m.qmp('query-status')).toMatchObject({ running: true, status: 'running' });
    const first = await serialShows(m, ['SeaBIOS', `Machine UUID ${m.profile.system_uuid}`, IPXE_BANNER, NET_FIRST]);
    expect(first).not.toContain(DISK_FIRST);
    expect(boots).toEqual(['pxe']);
    expect(m.bootOverride().device).toBe('none');

    const mark = serial(m).length;
    await m.act('reset');
    const second = await serialShows(m, ['SeaBIOS', DISK_FIRST, DISK_EMPTY, NET_FIRST], mark);
    expect(second.indexOf(DISK_FIRST)).toBeLessThan(second.indexOf(NET_FIRST));
    expect(boots).toEqual(['pxe', 'disk']);
    expect(await m.power()).toBe('on');
  });

  it('applies a boot device change made while running at the next reset, and keeps a continuous one', { timeout: 60_000 }, async () => {
    const m = make();
    const boots: string[] = [];
    m.onBoot((e) => boots.push(e.device));
    await m.act('on');
    await serialShows(m, [DISK_FIRST]);
    m.setBootOverride({ device: 'pxe', persistence: 'continuous' });
    for (const round of [1, 2]) {
      const mark = serial(m).length;
      await m.act('reset');
      const text = await serialShows(m, ['SeaBIOS', NET_FIRST], mark);
      expect(text, `reset ${round}`).not.toContain(DISK_FIRST);
    }
    expect(boots).toEqual(['disk', 'pxe', 'pxe']);
    m.setBootOverride({ device: 'cdrom' });
    const mark = serial(m).length;
    await m.act('reset');
    const text = await serialShows(m, ['Booting from DVD/CD', DISK_FIRST], mark);
    expect(text.indexOf('Booting from DVD/CD')).toBeLessThan(text.indexOf(DISK_FIRST));
    await m.act('soft-off'); // an ACPI button press that firmware without an OS ignores, as real ones do
    expect(await m.power()).toBe('on');
    // Accepted by QEMU; the firmware sometimes answers it by resetting (observed), which is a reboot: still on.
    await m.act('nmi');
    expect(await m.power()).toBe('on');
  });

  it('hard off ends QEMU, on starts it again, close() leaves no process', { timeout: 60_000 }, async () => {
    const m = make();
    await m.act('on');
    const pid1 = m.pid();
    expect(pid1).not.toBeNull();
    expect(alive(pid1 as number)).toBe(true);
    expect(readFileSync(m.paths.pid, 'utf8').trim()).toBe(String(pid1));

    await m.act('off');
    expect(await m.power()).toBe('off');
    expect(m.pid()).toBeNull();
    expect(alive(pid1 as number)).toBe(false);
    expect(existsSync(m.paths.qmp)).toBe(false);

    await m.act('on');
    const pid2 = m.pid() as number;
    expect(pid2).not.toBe(pid1);
    expect(await m.power()).toBe('on');
    await m.act('cycle');
    const pid3 = m.pid() as number;
    expect(pid3).not.toBe(pid2);
    expect(alive(pid2)).toBe(false);

    await m.close();
    expect(alive(pid3)).toBe(false);
    expect(existsSync(m.paths.qmp)).toBe(false);
    await m.close(); // idempotent
    await expect(m.act('on')).rejects.toThrow(/closed/);
  });

  it('reads a guest power-off as off with QEMU kept stopped, and powers on again', { timeout: 60_000 }, async () => {
    const m = make({}, bootSector('INGOT-POWEROFF\r\n', POWER_OFF));
    const boots: string[] = [];
    m.onBoot((e) => boots.push(e.device));
    await m.act('on');
    await serialShows(m, ['INGOT-POWEROFF']);
    await until('the guest power-off', async () => (await m.power()) === 'off');
    const pid = m.pid();
    expect(pid).not.toBeNull();
    expect(await m.qmp('query-status')).toMatchObject({ status: 'shutdown' });

    const mark = serial(m).length;
    await m.act('on');
    expect(m.pid()).not.toBe(pid); // a fresh QEMU: every boot is a cold one
    expect(alive(pid as number)).toBe(false);
    await serialShows(m, ['SeaBIOS', 'INGOT-POWEROFF'], mark);
    await until('the second guest power-off', async () => (await m.power()) === 'off');
    expect(boots).toEqual(['disk', 'disk']);
  });

  it('counts a guest reboot as a boot that consumes a one-time override', { timeout: 60_000 }, async () => {
    const m = make({}, bootSector('INGOT-REBOOT\r\n', REBOOT));
    const boots: string[] = [];
    m.onBoot((e) => boots.push(e.device));
    await m.act('on');
    await until('two guest reboots', async () => boots.length >= 3);
    expect(serial(m).split('INGOT-REBOOT').length).toBeGreaterThanOrEqual(3); // each boot ran the disk's sector
    m.setBootOverride({ device: 'pxe', persistence: 'once' });
    await serialShows(m, [IPXE_BANNER, NET_FIRST], serial(m).lastIndexOf('INGOT-REBOOT'));
    await until('the override to be consumed', async () => m.bootOverride().device === 'none');
    expect(boots.slice(0, 3)).toEqual(['disk', 'disk', 'disk']);
    expect(boots.filter((b) => b === 'pxe')).toHaveLength(1);
    expect(boots.at(-1)).toBe('pxe');
    expect(await m.power()).toBe('on');
  });

  it('boots UEFI (OVMF) machines in the same boot order', { timeout: 60_000 }, async () => {
    const m = make({ bootMode: 'uefi' });
    expect(m.profile.boot_mode).toBe('uefi');
    const boots: string[] = [];
    m.onBoot((e) => boots.push(e.device));
    await m.act('on');
    expect(existsSync(path.join(m.paths.qemuLog, '..', 'OVMF_VARS.fd'))).toBe(true); // the machine's own variable store
    // NOTE: OVMF names the empty virtio disk "UEFI Misc Device"; its iPXE is the EFI build ("EFI" feature).
    const text = await serialShows(m, ['BdsDxe: failed to load Boot000', '"UEFI Misc Device"', 'Features: DNS HTTP iSCSI NFS TFTP AoE EFI'], 0, 40_000);
    expect(text.indexOf('BdsDxe: failed to load')).toBeLessThan(text.indexOf('Open Source Network Boot Firmware'));
    expect(boots).toEqual(['disk']);
  });

  it('puts a local virtual media image into the CD drive of the running VM and takes it out', { timeout: 30_000 }, async () => {
    const m = make();
    await m.act('on');
    const image = path.join(path.dirname(m.paths.qemuLog), 'media.iso');
    writeFileSync(image, Buffer.alloc(2048 * 16));
    type Block = { device: string; inserted?: { file: string } };
    const cd = async () => (await m.qmp<Block[]>('query-block')).find((b) => b.device === 'cd0-drive');
    m.insertMedia(`file://${image}`);
    expect(m.virtualMedia()).toMatchObject({ inserted: true, image: `file://${image}` });
    await until('the image in the CD drive', async () => (await cd())?.inserted?.file === image);
    m.ejectMedia();
    await until('an empty CD drive', async () => (await cd())?.inserted === undefined);
    expect(m.virtualMedia().inserted).toBe(false);
  });

  it('fails clearly for a missing binary and for a QEMU that does not start', { timeout: 30_000 }, async () => {
    const missing = make({ qemuBinary: '/nonexistent/qemu-system-x86_64' });
    await expect(missing.act('on')).rejects.toThrow(/not found \(apt-get install qemu-system-x86 qemu-utils\)/);
    expect(await missing.power()).toBe('off');

    const broken = make({ extraArgs: ['-no-such-option'] });
    await expect(broken.act('on')).rejects.toThrow(/exited[\s\S]*last lines[\s\S]*no-such-option/);
    expect(broken.pid()).toBeNull();
  });

  it('accepts power actions and does nothing with the hang_power fault', async () => {
    const m = make({ faults: { hang_power: true } });
    await m.act('on');
    expect(await m.power()).toBe('off');
    expect(m.pid()).toBeNull();
  });

  it('derives a profile that matches the VM', () => {
    const m = make({ cpus: 2, memoryMiB: 256, nics: [{ mac: '52:54:00:AA:00:01' }, { mac: '52:54:00:aa:00:02' }] });
    expect(m.profile).toMatchObject({
      manufacturer: 'QEMU',
      model: 'Standard PC (i440FX + PIIX, 1996)',
      cpu: { count: 2, architecture: 'x86_64' },
      memory_mib: 256,
      disks: [{ name: '/dev/vda', size_bytes: 64 * 1024 * 1024 }],
      nics: [{ mac: '52:54:00:aa:00:01' }, { mac: '52:54:00:aa:00:02' }],
      boot_mode: 'bios',
    });
    expect(m.profile.system_uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(make().profile.system_uuid).toBe(m.profile.system_uuid); // stable per name
    expect(() => make({ bootMode: 'uefi', ovmf: { code: '/nonexistent/OVMF_CODE.fd', vars: '/nonexistent/OVMF_VARS.fd' } })).toThrow(/OVMF/);
  });
});
