/**
 * `ingot ramdisk build`, `ingot image build-test` and `ingot lab up|status|down`: the deploy ramdisk
 * and the test image built from Debian's packages, and a lab of QEMU machines that network-boot from a
 * real Ingot (src/lab). Loaded on demand: `ingot serve` never evaluates it.
 */
import { setMaxListeners } from 'node:events';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatLabStatus, LAB_KERNEL_PACKAGE, labDown, labStatus, labUp, probeAccel, type AccelProbe, type LabDownReport } from '../lab/qemu-lab/index.js';
import { buildRamdisk, type RamdiskBuild, type RamdiskCompression } from '../lab/ramdisk/index.js';
import { buildTestImage } from '../lab/test-image/index.js';
import { fail } from '../shared/errors.js';

const out = (line: string) => process.stdout.write(`${line}\n`);
const MB = 1e6;

function whole(value: string | undefined, flag: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw fail('flagNotWholeNumber', { flag, min, max, value });
  return n;
}

function fraction(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!(n >= 0 && n <= 1)) throw fail('flagNotFraction', { flag, value });
  return n;
}

/**
 * The bundled agent next to this command: dist/ingot-agent.cjs beside the bundled dist/ingot.mjs, or
 * from a source checkout (src/main → dist).
 */
function defaultAgentBundle(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.join(here, 'ingot-agent.cjs'), path.join(here, '..', '..', 'dist', 'ingot-agent.cjs')];
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw fail('defaultAgentBundleMissing', { paths: candidates.join(', ') });
  return found;
}

/** Signals end a long build cleanly. */
function interruptible(): AbortSignal {
  const ctl = new AbortController();
  // A build hands the signal to many concurrent steps (downloads, hashes, tools).
  setMaxListeners(64, ctl.signal);
  for (const s of ['SIGINT', 'SIGTERM'] as const) process.once(s, () => ctl.abort(new Error(`interrupted (${s})`)));
  return ctl.signal;
}

export interface RamdiskBuildFlags {
  outDir: string;
  cacheDir: string;
  agent?: string;
  kernelPackage?: string;
  compression: RamdiskCompression;
  force?: boolean;
  json?: boolean;
}

function ramdiskLine(b: RamdiskBuild): string {
  return `ramdisk: ${b.kernel} (${(b.kernelBytes / MB).toFixed(1)} MB, Linux ${b.kernelRelease} from ${b.kernelPackage.name} ${b.kernelPackage.version}) ` +
    `and ${b.initramfs} (${(b.sizeBytes / MB).toFixed(1)} MB, ${(b.rawBytes / MB).toFixed(1)} MB unpacked); ` +
    `${b.cached ? 'from the cache' : 'built'} in ${(b.durationMs / 1000).toFixed(1)} s; inputs ${b.inputsHash.slice(0, 12)}`;
}

/** `ingot ramdisk build`. */
export async function ramdiskBuildCommand(flags: RamdiskBuildFlags): Promise<void> {
  const build = await buildRamdisk({
    outDir: path.resolve(flags.outDir),
    cacheDir: path.resolve(flags.cacheDir),
    agentBundle: path.resolve(flags.agent ?? defaultAgentBundle()),
    ...(flags.kernelPackage ? { kernelPackage: flags.kernelPackage } : {}),
    compression: flags.compression,
    force: flags.force === true,
    log: flags.json ? undefined : (line) => out(line),
    signal: interruptible(),
  });
  out(flags.json ? JSON.stringify(build, null, 2) : ramdiskLine(build));
}

export interface TestImageFlags {
  out: string;
  sizeMib?: string;
  cacheDir: string;
  kernelPackage?: string;
  stay?: boolean;
  json?: boolean;
}

/** `ingot image build-test`. */
export async function testImageCommand(flags: TestImageFlags): Promise<void> {
  const sizeMib = whole(flags.sizeMib, '--size-mib', 1, 1024 * 1024);
  const image = await buildTestImage({
    out: path.resolve(flags.out),
    cacheDir: path.resolve(flags.cacheDir),
    ...(sizeMib !== undefined ? { sizeMib } : {}),
    ...(flags.kernelPackage ? { kernelPackage: flags.kernelPackage } : {}),
    stay: flags.stay === true,
    log: flags.json ? undefined : (line) => out(line),
    signal: interruptible(),
  });
  out(flags.json ? JSON.stringify(image, null, 2) : `test image: ${image.out} (${image.sizeBytes / 2 ** 20} MiB raw, Linux ${image.kernelRelease}) in ${(image.durationMs / 1000).toFixed(1)} s`);
}

export interface LabUpFlags {
  dir: string;
  kernel?: string;
  initramfs?: string;
  kernelPackage?: string;
  machines?: string;
  redfishShare?: string;
  memoryMib?: string;
  diskGib?: string;
  namespace?: string;
  manage?: boolean;
  fastTrack?: boolean;
  testImage: boolean;
  accel: 'auto' | 'tcg' | 'kvm';
  cacheDir: string;
  agent?: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  detach?: boolean;
}

/**
 * `ingot lab up`: builds (or takes) the deploy kernel and ramdisk, brings the lab up, builds the test
 * image into it and stays in the foreground until SIGINT/SIGTERM or until one of the lab's processes
 * ends, then takes the lab down (`--detach` leaves it running for `ingot lab down`).
 */
export async function labUpCommand(flags: LabUpFlags): Promise<void> {
  if ((flags.kernel === undefined) !== (flags.initramfs === undefined)) throw fail('kernelWithoutInitramfs');
  const machines = whole(flags.machines, '--machines', 1, 99);
  const memoryMib = whole(flags.memoryMib, '--memory-mib', 256, 65536);
  const diskGib = whole(flags.diskGib, '--disk-gib', 1, 4096);
  const redfishShare = fraction(flags.redfishShare, '--redfish-share');
  const signal = interruptible();
  const cacheDir = path.resolve(flags.cacheDir);
  const kernelPackage = flags.kernelPackage ?? LAB_KERNEL_PACKAGE;
  const scratch = await mkdtemp(path.join(tmpdir(), 'ingot-lab-up-'));
  let lab: Awaited<ReturnType<typeof labUp>>;
  try {
    let deploy = flags.kernel && flags.initramfs ? { kernel: path.resolve(flags.kernel), initramfs: path.resolve(flags.initramfs) } : undefined;
    if (!deploy) {
      const build = await buildRamdisk({ outDir: scratch, cacheDir, agentBundle: path.resolve(flags.agent ?? defaultAgentBundle()), kernelPackage, log: out, signal });
      out(ramdiskLine(build));
      deploy = { kernel: build.kernel, initramfs: build.initramfs };
    }
    // It stays up after its report, as a deployed OS does (Ingot's power sync then agrees with `active`).
    const image = path.join(scratch, 'test.img');
    if (flags.testImage || flags.accel === 'auto') await buildTestImage({ out: image, cacheDir, kernelPackage, stay: true, log: out, signal });
    let accel: 'tcg' | 'kvm' = flags.accel === 'kvm' ? 'kvm' : 'tcg';
    if (flags.accel === 'auto') {
      const probe = await kvmProbe(image, cacheDir, signal);
      out(`lab: KVM ${probe.usable ? 'works' : 'is not usable'} (${probe.detail}); the machines run with ${probe.usable ? 'kvm' : 'tcg'}`);
      if (probe.usable) accel = 'kvm';
    }
    lab = await labUp({
      dir: flags.dir,
      ingot: [process.execPath, ...process.execArgv, process.argv[1] as string],
      ...deploy,
      ...(machines !== undefined ? { machines } : {}),
      ...(memoryMib !== undefined ? { memoryMib } : {}),
      ...(diskGib !== undefined ? { diskGib } : {}),
      ...(redfishShare !== undefined ? { redfishShare } : {}),
      ...(flags.namespace ? { namespace: flags.namespace } : {}),
      accel,
      manage: flags.manage === true,
      fastTrack: flags.fastTrack === true,
      logLevel: flags.logLevel,
      log: out,
      signal,
    });
    if (flags.testImage) {
      await mkdir(lab.paths.imagesDir, { recursive: true });
      await copyFile(image, lab.paths.testImage);
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  const down = async (why: string): Promise<void> => {
    out(`lab: ${why}; taking the lab down`);
    printDown(await labDown({ dir: lab.paths.dir, log: out }));
  };
  out(formatLabStatus(await labStatus(lab.paths.dir)));
  for (const line of tryLines(lab.state.urls.api, lab.state.nodes[0]?.name ?? 'lab-1', flags.testImage ? lab.paths.testImage : null)) out(line);
  if (flags.detach) {
    out(`lab: left running; ingot lab down --dir ${lab.paths.dir} removes it`);
    lab.detach();
    return;
  }
  out('lab: Ctrl-C takes the lab down');
  const stopped = await Promise.race([
    new Promise<string>((resolve) => signal.addEventListener('abort', () => resolve(String((signal.reason as Error).message)), { once: true })),
    lab.exited.then((e) => `ingot ${e.role} ended (${e.signal ?? `exit ${e.code}`}; see ${e.role === 'serve' ? lab.paths.serveLog : lab.paths.bmcLog})`),
  ]);
  await down(stopped);
}

/** The KVM probe's answer, kept in the cache until the host restarts (a hanging probe costs 20 s). */
async function kvmProbe(image: string, cacheDir: string, signal: AbortSignal): Promise<AccelProbe> {
  const file = path.join(cacheDir, 'kvm-probe.json');
  const bootId = (await readFile('/proc/sys/kernel/random/boot_id', 'utf8').catch(() => '')).trim();
  const kept = JSON.parse(await readFile(file, 'utf8').catch(() => 'null')) as { boot_id: string; probe: AccelProbe } | null;
  if (bootId && kept?.boot_id === bootId) return { ...kept.probe, detail: `${kept.probe.detail}; probed since the host started` };
  const probe = await probeAccel({ image, signal });
  if (bootId && probe.detail !== 'interrupted') {
    await mkdir(cacheDir, { recursive: true });
    await writeFile(file, `${JSON.stringify({ boot_id: bootId, probe })}\n`);
  }
  return probe;
}

/** What to type next, with the lab's endpoint. */
function tryLines(api: string, node: string, image: string | null): string[] {
  const lines = [
    'lab: try',
    `  export OS_ENDPOINT=${api} OS_AUTH_TYPE=none`,
    `  baremetal node manage ${node} --wait && baremetal node inspect ${node} --wait && baremetal node provide ${node} --wait`,
  ];
  if (image) {
    lines.push(
      `  baremetal node set ${node} --instance-info image_source=file://${image} --instance-info image_checksum=sha256:$(sha256sum ${image} | cut -d' ' -f1)`,
      `  baremetal node deploy ${node} --config-drive '{"meta_data": {"hostname": "${node}.lab"}}' --wait; baremetal node history list ${node}`,
    );
  }
  return lines;
}

export interface LabStatusFlags {
  dir: string;
  json?: boolean;
}

/** `ingot lab status`. */
export async function labStatusCommand(flags: LabStatusFlags): Promise<void> {
  const status = await labStatus(path.resolve(flags.dir));
  out(flags.json ? JSON.stringify(status, null, 2) : formatLabStatus(status));
  if (!status.namespaceExists || status.processes.some((p) => !p.alive)) process.exitCode = 1;
}

export interface LabDownFlags {
  dir: string;
  force?: boolean;
  namespace?: string;
  graceS?: string;
}

function printDown(r: LabDownReport): void {
  out(`lab: down — ${r.stopped.length} process(es) stopped, namespace ${r.namespace} ${r.namespaceDeleted ? 'deleted' : 'not present'}, ${r.removedFiles.length} file(s) removed`);
  for (const w of r.warnings) out(`lab: WARNING ${w}`);
  if (r.warnings.length > 0) process.exitCode = 1;
}

/** `ingot lab down`. */
export async function labDownCommand(flags: LabDownFlags): Promise<void> {
  const grace = whole(flags.graceS, '--grace-s', 0, 3600);
  printDown(await labDown({
    dir: path.resolve(flags.dir),
    force: flags.force === true,
    ...(flags.namespace ? { namespace: flags.namespace } : {}),
    ...(grace !== undefined ? { graceMs: grace * 1000 } : {}),
    log: out,
  }));
}
