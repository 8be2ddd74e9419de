/**
 * Builds the lab's test image: a small raw whole-disk image that a BIOS machine boots from its disk
 * (syslinux on one FAT partition, Debian's kernel and a busybox initramfs), reporting on the serial
 * console that it booted and the hostname of its config drive (see test-image-init.ts). It is what the
 * lab deploys to check that a written image really boots and really got its config drive.
 *
 * Made without loop mounts or root: `sfdisk` writes an MBR with one bootable FAT partition at 1 MiB,
 * syslinux's `mbr.bin` fills the first 440 bytes, `mkfs.fat --offset` formats the partition inside the
 * file, `syslinux --offset --install` installs the boot loader there (through mtools) and `mcopy -i
 * image@@1M` copies the kernel, the initramfs and syslinux.cfg in.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, open, readFile, rename, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fail } from '../../shared/errors.js';
import { type BuildToolName, requireBuildTools, runTool } from '../build/build-tools.js';
import { type DebianKernel, fetchDebianKernel } from '../build/debian-kernel.js';
import { moduleLoadOrder, parseModulesBuiltin, parseModulesDep, partitionModules } from '../build/kernel-modules.js';
import { writeReproducibleCpio } from '../build/reproducible-cpio.js';
import { copyHostFiles, installBusybox, makeDir, writeRootFile } from '../build/rootfs.js';
import { TEST_IMAGE_MODULES_FILE, syslinuxConfig, testImageInitScript, testImagePowerButtonScript } from './test-image-init.js';

/** Default image size: room for Debian's kernel and the initramfs, and little else, so a deploy writes little. */
export const DEFAULT_TEST_IMAGE_MIB = 24;
/** Smallest image: FAT16 needs 4085 clusters (2 MiB of 512-byte clusters); the boot files need more anyway. */
export const MIN_TEST_IMAGE_MIB = 8;
/** Largest image with a FAT16 partition (at most 65524 clusters of 32 KiB); larger ones get FAT32. */
const MAX_FAT16_MIB = 2048;

/**
 * Drivers of the disks a config drive can be on (virtio, SCSI, NVMe, AHCI, PIIX disks and CD-ROMs),
 * ISO 9660, and the ACPI power button with evdev (for `ingot.stay`).
 */
export const TEST_IMAGE_MODULES: readonly string[] = ['virtio_pci', 'virtio_blk', 'virtio_scsi', 'nvme', 'ahci', 'ata_piix', 'sd_mod', 'sr_mod', 'isofs', 'button', 'evdev'];

/** Options of {@link buildTestImage}. */
export interface BuildTestImageOptions {
  /** The raw disk image to write (replaced). */
  out: string;
  /** Image size in MiB (default 64, at least 40). */
  sizeMib?: number;
  /** The kernel (with its modules); default: Debian's, fetched into `cacheDir`. */
  kernel?: DebianKernel;
  /** Where Debian's kernel is kept when `kernel` is not given. */
  cacheDir?: string;
  /** Kernel metapackage when fetching (default `linux-image-amd64`; `linux-image-cloud-amd64` boots faster in VMs). */
  kernelPackage?: string;
  /** Keep running after the report (kernel parameter `ingot.stay`) instead of powering off. */
  stay?: boolean;
  log?: (line: string) => void;
  signal?: AbortSignal;
}

/** What {@link buildTestImage} made. */
export interface TestImageBuild {
  out: string;
  sizeBytes: number;
  kernelRelease: string;
  initramfsBytes: number;
  durationMs: number;
}

const MIB = 1024 * 1024;
/** The partition starts at 1 MiB (sector 2048). */
const PART_START_SECTOR = 2048;

/** Builds the test image; throws DriverOperationError naming missing tools and their packages. */
export async function buildTestImage(opts: BuildTestImageOptions): Promise<TestImageBuild> {
  const started = Date.now();
  const log = opts.log ?? (() => {});
  const sizeMib = opts.sizeMib ?? DEFAULT_TEST_IMAGE_MIB;
  if (!Number.isInteger(sizeMib) || sizeMib < MIN_TEST_IMAGE_MIB) throw fail('testImageSizeInvalid', { size: sizeMib, min: MIN_TEST_IMAGE_MIB });
  const needed: BuildToolName[] = ['busybox', 'ldd', 'sfdisk', 'mkfs.fat', 'syslinux', 'mcopy', 'mbr.bin'];
  if (!opts.kernel) needed.push('apt-cache', 'apt-get', 'dpkg-deb', 'depmod');
  const tools = requireBuildTools(needed);
  let kernel = opts.kernel;
  if (!kernel) {
    if (!opts.cacheDir) throw fail('testImageKernelMissing');
    kernel = await fetchDebianKernel({ cacheDir: opts.cacheDir, kernelPackage: opts.kernelPackage, log, signal: opts.signal });
  }

  const tmp = await mkdtemp(path.join(os.tmpdir(), 'ingot-test-image-'));
  try {
    // The initramfs.
    const root = path.join(tmp, 'root');
    for (const dir of ['bin', 'sbin', 'usr/bin', 'usr/sbin', 'etc', 'proc', 'sys', 'dev', 'mnt', 'tmp', 'var/log', 'var/run']) await makeDir(root, dir);
    const deps = parseModulesDep(await readFile(path.join(kernel.modulesDir, 'modules.dep'), 'utf8'));
    const builtin = parseModulesBuiltin(await readFile(path.join(kernel.modulesDir, 'modules.builtin'), 'utf8').catch(() => ''));
    const { present, absent } = partitionModules(deps, TEST_IMAGE_MODULES, builtin);
    if (absent.length > 0) log(`test image: ${kernel.release} has no ${absent.join(', ')}; left out`);
    const order = moduleLoadOrder(deps, present, builtin);
    const modRoot = `/lib/modules/${kernel.release}`;
    await copyHostFiles(root, order.map((rel) => path.join(kernel.modulesDir, rel)), Object.fromEntries(order.map((rel) => [path.join(kernel.modulesDir, rel), `${modRoot}/${rel}`])));
    await writeRootFile(root, TEST_IMAGE_MODULES_FILE, `${order.join('\n')}\n`, 0o644);
    await installBusybox(root, tools.busybox!, tools.ldd!, opts.signal);
    await writeRootFile(root, '/init', testImageInitScript(kernel.release), 0o755);
    await writeRootFile(root, '/etc/acpi/PWRF/00000080', testImagePowerButtonScript(), 0o755);
    const initrd = path.join(tmp, 'initrd.img');
    const archived = await writeReproducibleCpio({ root, out: initrd, busybox: tools.busybox!, compression: 'gzip', signal: opts.signal });
    const cfg = path.join(tmp, 'syslinux.cfg');
    await writeRootFile(tmp, 'syslinux.cfg', syslinuxConfig({ stay: opts.stay ?? false }), 0o644);

    const payload = (await stat(kernel.vmlinuz)).size + archived.bytes;
    // The FATs take at most ~1/128 of the partition; keep a MiB of slack.
    const room = (sizeMib - 1) * MIB * (1 - 1 / 64) - MIB;
    if (payload > room) throw fail('testImageTooSmall', { size: sizeMib, payload: (payload / MIB).toFixed(1) });

    // The disk: a sparse file with an MBR, one bootable FAT16 (LBA, type 0x0e) or FAT32 (LBA, type 0x0c)
    // partition from 1 MiB to the end.
    const fat = sizeMib <= MAX_FAT16_MIB ? { bits: '16', type: 'e' } : { bits: '32', type: 'c' };
    await mkdir(path.dirname(path.resolve(opts.out)), { recursive: true });
    const tmpOut = `${opts.out}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      const fh = await open(tmpOut, 'w');
      try {
        await fh.truncate(sizeMib * MIB);
      } finally {
        await fh.close();
      }
      await runTool(tools.sfdisk!, ['--no-reread', '--no-tell-kernel', '--quiet', tmpOut], { input: `label: dos\nlabel-id: 0x494e474f\nstart=${PART_START_SECTOR}, type=${fat.type}, bootable\n`, signal: opts.signal });
      const mbr = await readFile(tools['mbr.bin']!);
      const disk = await open(tmpOut, 'r+');
      try {
        // Only the boot code: bytes 440-511 hold the disk signature and the partition table.
        await disk.write(mbr.subarray(0, 440), 0, Math.min(440, mbr.length), 0);
      } finally {
        await disk.close();
      }
      const partKib = (sizeMib - 1) * 1024;
      await runTool(tools['mkfs.fat']!, ['-F', fat.bits, '-n', 'INGOT-TEST', '--invariant', `--offset=${PART_START_SECTOR}`, tmpOut, String(partKib)], { signal: opts.signal });
      const mtoolsEnv = { ...process.env, MTOOLS_SKIP_CHECK: '1' };
      await runTool(tools.syslinux!, ['--offset', String(PART_START_SECTOR * 512), '--install', tmpOut], { env: mtoolsEnv, signal: opts.signal });
      const image = `${tmpOut}@@${PART_START_SECTOR * 512}`;
      for (const [from, to] of [[kernel.vmlinuz, '::vmlinuz'], [initrd, '::initrd.img'], [cfg, '::syslinux.cfg']] as const) {
        await runTool(tools.mcopy!, ['-o', '-i', image, from, to], { env: mtoolsEnv, signal: opts.signal });
      }
      await rm(opts.out, { force: true });
      await rename(tmpOut, opts.out);
    } finally {
      await rm(tmpOut, { force: true });
    }
    const result: TestImageBuild = { out: opts.out, sizeBytes: sizeMib * MIB, kernelRelease: kernel.release, initramfsBytes: archived.bytes, durationMs: Date.now() - started };
    log(`test image built: ${opts.out} (${sizeMib} MiB, kernel ${kernel.release}, initramfs ${(archived.bytes / 1e6).toFixed(2)} MB) in ${result.durationMs} ms`);
    return result;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
