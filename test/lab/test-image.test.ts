/**
 * The lab's test image for real: built without loop mounts from Debian's kernel, busybox and
 * syslinux; given a config drive the way the agent gives one to a deployed disk (Ingot's renderer
 * makes the `config-2` ISO, the agent's `writeConfigDrive` adds it as a partition at the disk's end);
 * booted by QEMU from the disk (SeaBIOS → syslinux → Linux, TCG), it must print its marker and the
 * config drive's hostname and UUID on the serial console, then power off.
 *
 * Shares the persistent kernel cache `os.tmpdir()/ingot-lab-cache` with ramdisk.test.ts. Needs apt
 * package lists, busybox-static, syslinux, syslinux-common, mtools, dosfstools, fdisk and
 * qemu-system-x86 (fails with the install command otherwise).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFile, mkdtemp, open, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeConfigDrive } from '../../src/agent/disk/config-drive.js';
import { openDisk } from '../../src/agent/disk/disk-target.js';
import { renderConfigDrive } from '../../src/images/configdrive/render.js';
import { requireBuildTools } from '../../src/lab/build/build-tools.js';
import { buildTestImage, parseTestImageConsole, type TestImageBuild } from '../../src/lab/test-image/index.js';
import { CONFIG_DRIVE_PROBE } from '../../src/lab/test-image/test-image-init.js';
import { type Guest, requireQemu, startGuest } from './qemu-guest.js';

const CACHE = path.join(os.tmpdir(), 'ingot-lab-cache');
const MIB = 1024 * 1024;

let work: string;
let built: Promise<TestImageBuild> | undefined;
const guests: Guest[] = [];
const log = (line: string) => {
  if (process.env.INGOT_TEST_LAB_LOG) process.stderr.write(`${line}\n`);
};

function image(): Promise<TestImageBuild> {
  built ??= buildTestImage({ out: path.join(work, 'test.img'), cacheDir: CACHE, log });
  return built;
}

beforeAll(async () => {
  requireQemu();
  work = await mkdtemp(path.join(os.tmpdir(), 'ingot-test-image-test-'));
});

afterEach(async () => {
  for (const g of guests.splice(0)) await g.kill();
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('lab test image', () => {
  it('is a 24 MiB disk with syslinux’s MBR and one bootable FAT16 partition at 1 MiB holding the boot files', async () => {
    const r = await image();
    expect(r.sizeBytes).toBe(24 * MIB);
    const fh = await open(r.out, 'r');
    const sector0 = Buffer.alloc(512);
    try {
      expect((await fh.stat()).size).toBe(24 * MIB);
      await fh.read(sector0, 0, 512, 0);
    } finally {
      await fh.close();
    }
    const tools = requireBuildTools(['mbr.bin', 'mcopy']);
    expect(sector0.subarray(0, 440).equals((await readFile(tools['mbr.bin']!)).subarray(0, 440))).toBe(true);
    expect(sector0.readUInt16LE(510)).toBe(0xaa55);
    const p1 = sector0.subarray(446, 462);
    expect(p1[0]).toBe(0x80); // bootable
    expect(p1[4]).toBe(0x0e); // FAT16 (LBA)
    expect(p1.readUInt32LE(8)).toBe(2048);
    expect(p1.readUInt32LE(12)).toBe((23 * MIB) / 512);
    expect(sector0.subarray(462, 510).every((b) => b === 0)).toBe(true);
    // mdir is mtools' sibling of mcopy (same package).
    const listing = execFileSync(path.join(path.dirname(tools.mcopy!), 'mdir'), ['-a', '-b', '-i', `${r.out}@@1M`, '::'], { encoding: 'utf8', env: { ...process.env, MTOOLS_SKIP_CHECK: '1' } });
    expect(listing.split('\n').map((l) => l.replace(/^::\//, '').toLowerCase()).filter(Boolean).sort()).toEqual(['initrd.img', 'ldlinux.c32', 'ldlinux.sys', 'syslinux.cfg', 'vmlinuz']);
    expect(r.initramfsBytes).toBeLessThan(4 * MIB);
  }, 300_000);

  it('gets a FAT32 partition when larger than FAT16 allows (2 GiB)', async () => {
    const big = await buildTestImage({ out: path.join(work, 'big.img'), sizeMib: 2100, cacheDir: CACHE, log });
    const sector0 = Buffer.alloc(512);
    const fh = await open(big.out, 'r');
    try {
      await fh.read(sector0, 0, 512, 0);
    } finally {
      await fh.close();
    }
    expect(sector0[446 + 4]).toBe(0x0c); // FAT32 (LBA)
    const { mcopy } = requireBuildTools(['mcopy']);
    const listing = execFileSync(path.join(path.dirname(mcopy!), 'mdir'), ['-b', '-i', `${big.out}@@1M`, '::'], { encoding: 'utf8', env: { ...process.env, MTOOLS_SKIP_CHECK: '1' } });
    expect(listing).toMatch(/vmlinuz/i);
    await rm(big.out);
  }, 300_000);

  it('recognises a config-2 ISO without mounting it, and nothing else', async () => {
    const { busybox } = requireBuildTools(['busybox']);
    const iso = path.join(work, 'config.iso');
    await writeFile(iso, renderConfigDrive({ meta_data: { uuid: 'u', hostname: 'h' } }));
    const zeros = path.join(work, 'zeros.img');
    await writeFile(zeros, Buffer.alloc(64 * 1024));
    const probe = (file: string) => spawnSync(busybox!, ['sh', '-c', `${CONFIG_DRIVE_PROBE}is_config_drive "$1"`, 'sh', file]).status;
    expect(probe(iso)).toBe(0);
    expect(probe(zeros)).toBe(1);
  });

  it('boots from disk in QEMU and reports the hostname and UUID of its config drive partition', async () => {
    const r = await image();
    const disk = path.join(work, 'disk.img');
    await copyFile(r.out, disk);
    await truncate(disk, 128 * MIB);
    const uuid = randomUUID();
    const hostname = `lab-node-${uuid.slice(0, 6)}.example`;
    const target = await openDisk(disk);
    try {
      const placed = await writeConfigDrive(target, renderConfigDrive({ meta_data: { uuid, hostname } }));
      expect(placed).toMatchObject({ partition: 2, created: true, table: 'mbr' });
    } finally {
      await target.close();
    }

    const started = Date.now();
    const guest = startGuest(['-m', '256', '-nographic', '-no-reboot', '-drive', `file=${disk},if=virtio,format=raw`, '-nic', 'none']);
    guests.push(guest);
    const code = await guest.waitExit(120_000);
    log(`test image: disk boot → report → power off in ${Date.now() - started} ms`);
    const text = guest.console();
    expect(code, text.slice(-3000)).toBe(0);
    expect(text).toContain('SYSLINUX');
    expect(parseTestImageConsole(text), text.slice(-3000)).toEqual({ booted: true, done: true, configDrive: '/dev/vda2', hostname, uuid });
    expect(text).toContain('reboot: Power down');
  }, 180_000);
});
