/**
 * Builds Ingot's deploy ramdisk: Debian's kernel and an initramfs holding busybox, the host's Node
 * (stripped, with its shared libraries and loader), `lsblk`, the drivers of virtual and common disks and NICs,
 * and the bundled agent (dist/ingot-agent.cjs), started by a shell `/init` (see ramdisk-init.ts).
 *
 * Builds are reproducible (the same inputs give the same bytes) and cached under
 * `<cacheDir>/<inputsHash>/`: the hash covers the kernel package and version, every host file copied
 * in (Node, busybox, lsblk and their libraries, by content), the agent bundle, the scripts, the module
 * list, the compression, the `strip` and compressor programs and {@link RAMDISK_BUILDER_VERSION}. A build whose inputs are cached costs
 * resolving the kernel package (one `apt-cache` run, ~1.5 s where apt keeps no binary cache), hashing
 * (~0.5 s, mostly Node's 99 MB) and a copy to `outDir`: ~2 s.
 */
import { createHash, randomBytes } from 'node:crypto';
import { constants as fsConstants, createReadStream } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fail } from '../../shared/errors.js';
import { type BuildToolName, requireBuildTools, runTool } from '../build/build-tools.js';
import { type KernelPackage, fetchDebianKernel, resolveKernelPackage } from '../build/debian-kernel.js';
import { moduleLoadOrder, parseModulesBuiltin, parseModulesDep, partitionModules } from '../build/kernel-modules.js';
import { RAMDISK_COMPRESSIONS, type RamdiskCompression, writeReproducibleCpio } from '../build/reproducible-cpio.js';
import { copyHostFiles, installBusybox, makeDir, programClosure, writeRootFile } from '../build/rootfs.js';
import { pruneRamdiskCache } from './ramdisk-cache.js';
import { RAMDISK_AGENT_PATH, RAMDISK_MODULES_FILE, UDHCPC_SCRIPT_PATH, acpiPowerButtonScript, ramdiskEtcFiles, ramdiskInitScript, udhcpcScript } from './ramdisk-init.js';

/** Bumped whenever the builder's output changes for the same inputs (invalidates every cache entry). */
export const RAMDISK_BUILDER_VERSION = 2;

/**
 * Drivers loaded at boot (with their dependencies): virtio PCI, net, block and SCSI; Intel e1000 and
 * e1000e NICs (QEMU's defaults for i440fx and q35); NVMe, AHCI and PIIX disks with sd_mod; the ACPI
 * power button and evdev for acpid; virtio_rng (a VM with `-device virtio-rng-pci` seeds the kernel's
 * random pool at once instead of after seconds, and Node's start waits for it). Debian's generic kernel
 * builds all of them as modules; af_packet (udhcpc's raw socket) is built in. A kernel flavour without
 * some of them (the cloud kernel has no e1000, e1000e or ahci) gets the others.
 */
export const RAMDISK_MODULES: readonly string[] = ['virtio_pci', 'virtio_net', 'virtio_blk', 'virtio_scsi', 'e1000', 'e1000e', 'nvme', 'ahci', 'ata_piix', 'sd_mod', 'button', 'evdev', 'virtio_rng'];

/** Ramdisks a cache keeps by default (each ~50 MB). */
export const DEFAULT_KEEP_BUILDS = 4;

/** File names in `outDir`. */
export const RAMDISK_KERNEL_FILE = 'ingot-agent.kernel';
export const RAMDISK_INITRAMFS_FILE = 'ingot-agent.initramfs';

/** Options of {@link buildRamdisk}. */
export interface BuildRamdiskOptions {
  /** Where the kernel and initramfs are copied ({@link RAMDISK_KERNEL_FILE}, {@link RAMDISK_INITRAMFS_FILE}). */
  outDir: string;
  /** Build cache: unpacked kernel packages and one directory per inputs hash. */
  cacheDir: string;
  /** The bundled agent (`node scripts/bundle-agent.mjs` → dist/ingot-agent.cjs). */
  agentBundle: string;
  log?: (line: string) => void;
  /** The Node binary copied in (default: the one running this, e.g. /usr/bin/node). */
  nodeBinary?: string;
  /** Kernel metapackage or versioned package (default `linux-image-amd64`; `linux-image-cloud-amd64` for VMs). */
  kernelPackage?: string;
  /** Initramfs compression (default lz4). */
  compression?: RamdiskCompression;
  /** Module names loaded after {@link RAMDISK_MODULES}; unlike those, the kernel must have each. */
  extraModules?: readonly string[];
  /** Rebuild even when the inputs are cached (the result replaces the cache entry). */
  force?: boolean;
  /** Ramdisks kept in the cache, most recently used first (default {@link DEFAULT_KEEP_BUILDS}); older ones are removed after a build. */
  keepBuilds?: number;
  signal?: AbortSignal;
}

/** What {@link buildRamdisk} made. */
export interface RamdiskBuild {
  /** The kernel (bzImage) in `outDir`. */
  kernel: string;
  /** The initramfs in `outDir`. */
  initramfs: string;
  /** Size of the initramfs. */
  sizeBytes: number;
  /** Size of the initramfs before compression. */
  rawBytes: number;
  kernelBytes: number;
  /** The inputs were cached: nothing was built. */
  cached: boolean;
  /** sha256 (hex) over every input; the cache directory's name. */
  inputsHash: string;
  kernelPackage: KernelPackage;
  /** `uname -r` of the kernel. */
  kernelRelease: string;
  durationMs: number;
}

/** What the cache keeps next to the kernel and initramfs. */
interface Manifest {
  inputsHash: string;
  kernelPackage: KernelPackage;
  kernelRelease: string;
  rawBytes: number;
  entries: number;
}

async function sha256File(file: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash, { signal });
  return hash.digest('hex');
}

/** A file the ramdisk takes from the host: where it comes from and where it goes. */
interface HostFile {
  from: string;
  to: string;
}

async function hostFiles(tools: Record<string, string>, nodeBinary: string, agentBundle: string, signal?: AbortSignal): Promise<HostFile[]> {
  const [node, ...nodeLibs] = await programClosure(nodeBinary, tools.ldd!, signal);
  const [lsblk, ...lsblkLibs] = await programClosure(tools.lsblk!, tools.ldd!, signal);
  return [
    { from: node!, to: '/usr/bin/node' },
    { from: lsblk!, to: '/usr/bin/lsblk' },
    ...[...nodeLibs, ...lsblkLibs].map((lib) => ({ from: lib, to: lib })),
    { from: agentBundle, to: RAMDISK_AGENT_PATH },
  ];
}

/** Everything a build reads, resolved, and the hash over it. */
interface ResolvedInputs {
  inputsHash: string;
  kernelPackage: KernelPackage;
  compression: RamdiskCompression;
  tools: Record<string, string>;
  nodeBinary: string;
  files: HostFile[];
}

/** What decides a ramdisk's bytes (a subset of {@link BuildRamdiskOptions}). */
export type RamdiskInputOptions = Pick<BuildRamdiskOptions, 'agentBundle' | 'nodeBinary' | 'kernelPackage' | 'compression' | 'extraModules' | 'signal'>;

async function resolveInputs(opts: RamdiskInputOptions): Promise<ResolvedInputs> {
  const compression = opts.compression ?? RAMDISK_COMPRESSIONS[0]!;
  if (!RAMDISK_COMPRESSIONS.includes(compression)) throw fail('ramdiskCompressionUnknown', { compression: String(compression), choices: RAMDISK_COMPRESSIONS.join(', ') });
  const needed: BuildToolName[] = ['apt-cache', 'apt-get', 'dpkg-deb', 'depmod', 'ldd', 'busybox', 'lsblk', 'strip'];
  if (compression !== 'gzip') needed.push(compression);
  const tools = requireBuildTools(needed);
  const nodeBinary = opts.nodeBinary ?? process.execPath;
  const isFile = (file: string) => stat(file).then((s) => s.isFile(), () => false);
  if (!(await isFile(opts.agentBundle))) throw fail('agentBundleMissing', { file: opts.agentBundle });
  if (!(await isFile(nodeBinary))) throw fail('nodeBinaryMissing', { file: nodeBinary });
  const modules = [...RAMDISK_MODULES, ...(opts.extraModules ?? [])];
  const kernelPackage = await resolveKernelPackage({ kernelPackage: opts.kernelPackage, signal: opts.signal });
  const files = await hostFiles(tools, nodeBinary, opts.agentBundle, opts.signal);
  const busybox = await programClosure(tools.busybox!, tools.ldd!, opts.signal);
  const inputs = {
    builder: RAMDISK_BUILDER_VERSION,
    kernelPackage,
    modules,
    compression,
    init: ramdiskInitScript('RELEASE'),
    udhcpc: udhcpcScript(),
    acpi: acpiPowerButtonScript(),
    etc: ramdiskEtcFiles(),
    files: await Promise.all([...files, ...busybox.map((f) => ({ from: f, to: f }))].map(async (f) => ({ to: f.to, sha256: await sha256File(f.from, opts.signal) }))),
    // The programs that rewrite bytes on the way in: another strip or compressor may write others.
    programs: await Promise.all(['strip', compression].filter((t) => t !== 'gzip').map(async (t) => ({ tool: t, sha256: await sha256File(tools[t]!, opts.signal) }))),
  };
  const inputsHash = createHash('sha256').update(JSON.stringify(inputs)).digest('hex');
  return { inputsHash, kernelPackage, compression, tools, nodeBinary, files };
}

/**
 * The inputs hash a build with these options would have (the name of its cache directory), without
 * building: resolves the kernel package with apt-cache and hashes the host files.
 */
export async function ramdiskInputsHash(opts: RamdiskInputOptions): Promise<string> {
  return (await resolveInputs(opts)).inputsHash;
}

/**
 * Builds (or finds cached) the deploy kernel and initramfs. Boot them with `RAMDISK_KERNEL_PARAMS`
 * plus the agent's parameters (`ipa-inspection-callback-url=…`, `ipa-api-url=…`, `BOOTIF=…`), and at
 * least 512 MiB of memory (the unpacked root file system is ~110 MB). Throws DriverOperationError
 * naming missing host tools with the packages to install.
 */
export async function buildRamdisk(opts: BuildRamdiskOptions): Promise<RamdiskBuild> {
  const started = Date.now();
  const log = opts.log ?? (() => {});
  const { inputsHash, kernelPackage, compression, tools, nodeBinary, files } = await resolveInputs(opts);
  const entry = path.join(opts.cacheDir, inputsHash);
  const outKernel = path.join(opts.outDir, RAMDISK_KERNEL_FILE);
  const outInitramfs = path.join(opts.outDir, RAMDISK_INITRAMFS_FILE);

  const publish = async (manifest: Manifest, cached: boolean): Promise<RamdiskBuild> => {
    await mkdir(opts.outDir, { recursive: true });
    await copyFile(path.join(entry, 'kernel'), outKernel, fsConstants.COPYFILE_FICLONE);
    await copyFile(path.join(entry, 'initramfs'), outInitramfs, fsConstants.COPYFILE_FICLONE);
    const result: RamdiskBuild = {
      kernel: outKernel,
      initramfs: outInitramfs,
      sizeBytes: (await stat(outInitramfs)).size,
      rawBytes: manifest.rawBytes,
      kernelBytes: (await stat(outKernel)).size,
      cached,
      inputsHash,
      kernelPackage: manifest.kernelPackage,
      kernelRelease: manifest.kernelRelease,
      durationMs: Date.now() - started,
    };
    log(`ramdisk ${cached ? 'cached' : 'built'}: ${result.initramfs} ${(result.sizeBytes / 1e6).toFixed(1)} MB (${(result.rawBytes / 1e6).toFixed(1)} MB unpacked), kernel ${manifest.kernelRelease}, ${result.durationMs} ms`);
    return result;
  };

  if (!opts.force) {
    const manifest = await readFile(path.join(entry, 'manifest.json'), 'utf8').then((t) => JSON.parse(t) as Manifest, () => undefined);
    if (manifest && (await stat(path.join(entry, 'initramfs')).then(() => true, () => false))) {
      // The manifest's mtime is the entry's last use, for pruning.
      const now = new Date();
      await utimes(path.join(entry, 'manifest.json'), now, now).catch(() => {});
      return publish(manifest, true);
    }
  }

  const kernel = await fetchDebianKernel({ cacheDir: opts.cacheDir, resolved: kernelPackage, log, signal: opts.signal });
  const tmp = `${entry}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  const root = path.join(tmp, 'root');
  try {
    await mkdir(root, { recursive: true });
    for (const dir of ['bin', 'sbin', 'usr/bin', 'usr/sbin', 'lib', 'lib64', 'etc', 'proc', 'sys', 'dev', 'run', 'tmp', 'var/log', 'var/run', 'root', 'mnt']) await makeDir(root, dir);

    // Drivers: the modules and their dependencies, plus a modules.dep for them (so modprobe works too).
    const deps = parseModulesDep(await readFile(path.join(kernel.modulesDir, 'modules.dep'), 'utf8'));
    const builtin = parseModulesBuiltin(await readFile(path.join(kernel.modulesDir, 'modules.builtin'), 'utf8').catch(() => ''));
    const { present, absent } = partitionModules(deps, RAMDISK_MODULES, builtin);
    if (absent.length > 0) log(`ramdisk: ${kernel.release} has no ${absent.join(', ')}; left out`);
    const order = moduleLoadOrder(deps, [...present, ...(opts.extraModules ?? [])], builtin);
    const modRoot = `/lib/modules/${kernel.release}`;
    await copyHostFiles(root, order.map((rel) => path.join(kernel.modulesDir, rel)), Object.fromEntries(order.map((rel) => [path.join(kernel.modulesDir, rel), `${modRoot}/${rel}`])));
    for (const f of ['modules.order', 'modules.builtin']) {
      await copyHostFiles(root, [path.join(kernel.modulesDir, f)], { [path.join(kernel.modulesDir, f)]: `${modRoot}/${f}` });
    }
    await runTool(tools.depmod!, ['-b', root, kernel.release], { signal: opts.signal });
    await writeRootFile(root, RAMDISK_MODULES_FILE, `${order.join('\n')}\n`, 0o644);

    await copyHostFiles(root, files.map((f) => f.from), Object.fromEntries(files.map((f) => [f.from, f.to])));
    // Node's symbol table and debug sections (~13 MB) are of no use in the ramdisk; its dynamic symbols stay.
    await runTool(tools.strip!, [path.join(root, 'usr/bin/node')], { signal: opts.signal });
    const applets = await installBusybox(root, tools.busybox!, tools.ldd!, opts.signal);
    await writeRootFile(root, '/init', ramdiskInitScript(kernel.release), 0o755);
    await writeRootFile(root, UDHCPC_SCRIPT_PATH, udhcpcScript(), 0o755);
    await writeRootFile(root, '/etc/acpi/PWRF/00000080', acpiPowerButtonScript(), 0o755);
    for (const [file, text] of Object.entries(ramdiskEtcFiles())) await writeRootFile(root, file, text, 0o644);
    log(`ramdisk tree: ${order.length} modules, ${applets} busybox applets, Node ${nodeBinary}`);

    const archived = await writeReproducibleCpio({ root, out: path.join(tmp, 'initramfs'), busybox: tools.busybox!, compression, compressor: tools[compression], signal: opts.signal });
    await copyFile(kernel.vmlinuz, path.join(tmp, 'kernel'));
    const manifest: Manifest = { inputsHash, kernelPackage, kernelRelease: kernel.release, rawBytes: archived.rawBytes, entries: archived.entries };
    await writeFile(path.join(tmp, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    await rm(root, { recursive: true, force: true });
    if (opts.force) await rm(entry, { recursive: true, force: true });
    try {
      await rename(tmp, entry);
    } catch (err) {
      // A concurrent build of the same inputs won the rename; its bytes are the same.
      if (!(await stat(path.join(entry, 'manifest.json')).then(() => true, () => false))) throw err;
    }
    await pruneRamdiskCache(opts.cacheDir, inputsHash, opts.keepBuilds ?? DEFAULT_KEEP_BUILDS, log);
    return await publish(manifest, false);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
