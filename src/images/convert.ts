/**
 * Disk image formats: telling qcow2 from raw by the header, refusing formats and features that could
 * make qemu-img read other files (backing files, external data files, VMDK descriptors — Ironic's
 * `images.safety_check_image` and `image_to_raw`), reading the virtual size, and converting qcow2 to raw
 * with `qemu-img convert`. qemu-img always gets the format named (`-f`), never probes it.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, open, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { formatBytes, imageError } from './errors.js';

/** Formats Ingot recognises. raw, iso and gpt are written as they are; qcow2 is converted. */
export type ImageFormat = 'raw' | 'iso' | 'gpt' | 'qcow2' | 'qed' | 'vmdk' | 'vhdx' | 'vhd' | 'vdi' | 'luks';

/** Formats accepted as images (Ironic `[conductor]permitted_image_formats` default). */
export const PERMITTED_FORMATS: readonly ImageFormat[] = ['raw', 'iso', 'gpt', 'qcow2'];

/** What {@link inspectImage} found. */
export interface ImageInspection {
  format: ImageFormat;
  /** Bytes the image occupies on a disk once written (the raw size). */
  virtualSize: number;
  /** Bytes of the file itself. */
  fileSize: number;
}

/** Options for the qemu-img calls. */
export interface QemuImgOptions {
  /** The qemu-img binary (default: `qemu-img` on PATH). */
  qemuImg?: string;
  signal?: AbortSignal;
}


async function readHead(file: string, length: number, position = 0): Promise<Buffer> {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(length);
    const { bytesRead } = await fh.read(buf, 0, length, position);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** Tells the format from the file's first bytes; anything unrecognised is raw. */
export async function detectFormat(file: string): Promise<ImageFormat> {
  const head = await readHead(file, 0x8006);
  const at = (off: number, magic: string | number[]) => {
    const m = typeof magic === 'string' ? Buffer.from(magic, 'latin1') : Buffer.from(magic);
    return head.length >= off + m.length && head.subarray(off, off + m.length).equals(m);
  };
  if (at(0, [0x51, 0x46, 0x49, 0xfb])) return 'qcow2';
  if (at(0, 'QED\0')) return 'qed';
  if (at(0, 'KDMV') || at(0, '# Disk DescriptorFile')) return 'vmdk';
  if (at(0, 'vhdxfile')) return 'vhdx';
  if (at(0, 'conectix')) return 'vhd';
  if (at(64, [0x7f, 0x10, 0xda, 0xbe])) return 'vdi';
  if (at(0, [0x4c, 0x55, 0x4b, 0x53, 0xba, 0xbe])) return 'luks';
  if (at(0x8001, 'CD001')) return 'iso';
  if (at(512, 'EFI PART')) return 'gpt';
  return 'raw';
}

/** The qcow2 header fields that matter for safety and size (QEMU docs/interop/qcow2.txt). */
export interface Qcow2Header {
  version: number;
  virtualSize: number;
  hasBackingFile: boolean;
  hasExternalDataFile: boolean;
}

/** Reads a qcow2 header; throws `format` for a file that is not qcow2. */
export async function readQcow2Header(file: string): Promise<Qcow2Header> {
  const h = await readHead(file, 104);
  if (h.length < 72 || h.readUInt32BE(0) !== 0x514649fb) throw imageError('format', 'notQcow2', { file });
  const version = h.readUInt32BE(4);
  const backingOffset = h.readBigUInt64BE(8);
  const virtualSize = Number(h.readBigUInt64BE(24));
  // NOTE: bit 2 of the v3 incompatible features marks an external data file (CVE-2024-44082).
  const incompatible = version >= 3 && h.length >= 80 ? h.readBigUInt64BE(72) : 0n;
  return { version, virtualSize, hasBackingFile: backingOffset !== 0n, hasExternalDataFile: (incompatible & 4n) !== 0n };
}

/** The qemu-img binary's absolute path; a clear error with the install hint when it is missing. */
export async function findQemuImg(qemuImg = 'qemu-img'): Promise<string> {
  const candidates = qemuImg.includes('/') ? [qemuImg] : (process.env.PATH ?? '/usr/bin:/bin').split(':').filter(Boolean).map((d) => path.join(d, qemuImg));
  for (const c of candidates) {
    try {
      await access(c, constants.X_OK);
      return c;
    } catch {
      // try the next one
    }
  }
  throw imageError('convert', 'qemuImgMissing', { command: qemuImg, path: process.env.PATH ?? '' });
}

/** Runs a command; resolves with its stdout, rejects with its stderr. The signal kills it. */
function run(cmd: string, args: string[], signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], signal, killSignal: 'SIGKILL' });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e: NodeJS.ErrnoException) => {
      if (e.name === 'AbortError') reject(imageError('aborted', 'qemuCommandAborted', { command: path.basename(cmd) }, { cause: e }));
      else if (e.code === 'ENOENT') reject(imageError('convert', 'qemuCommandMissing', { command: cmd }, { cause: e }));
      else reject(imageError('convert', 'qemuCommandNotStarted', { command: cmd, reason: e.message }, { cause: e }));
    });
    child.on('close', (code, sig) => {
      if (code === 0) return resolve(Buffer.concat(out).toString('utf8'));
      if (signal?.aborted) return; // the 'error' handler reports the abort
      const text = Buffer.concat(err).toString('utf8').trim();
      reject(imageError('convert', 'qemuCommandFailed', { command: [cmd, ...args].join(' '), status: sig ?? `exit ${code}`, output: text || 'no output' }));
    });
  });
}

let prlimitPath: string | null | undefined;
async function prlimit(): Promise<string | null> {
  if (prlimitPath === undefined) {
    prlimitPath = null;
    for (const p of ['/usr/bin/prlimit', '/bin/prlimit']) {
      try {
        await access(p, constants.X_OK);
        prlimitPath = p;
        break;
      } catch {
        // not there
      }
    }
  }
  return prlimitPath;
}

/** `qemu-img info --output=json` of a file read as `format`. */
export interface QemuImgInfo {
  format: string;
  virtualSize: number;
  actualSize?: number;
  backingFile?: string;
  dataFile?: string;
}

/**
 * Runs `qemu-img info -f <format> --output=json`, under `prlimit` (1 GiB address space, 30 s CPU) as
 * Ironic does, since a crafted header can make qemu-img burn memory.
 */
export async function qemuImgInfo(file: string, format: string, opts: QemuImgOptions = {}): Promise<QemuImgInfo> {
  const bin = await findQemuImg(opts.qemuImg);
  const args = ['info', '-f', format, '--output=json', file];
  const limiter = await prlimit();
  const out = limiter ? await run(limiter, ['--as=1073741824', '--cpu=30', '--', bin, ...args], opts.signal) : await run(bin, args, opts.signal);
  let j: Record<string, unknown>;
  try {
    j = JSON.parse(out) as Record<string, unknown>;
  } catch (err) {
    throw imageError('convert', 'qemuImgInfoNotJson', { file, output: out.slice(0, 200) }, { cause: err });
  }
  const specific = (j['format-specific'] as { data?: Record<string, unknown> } | undefined)?.data;
  return {
    format: String(j.format),
    virtualSize: Number(j['virtual-size']),
    actualSize: typeof j['actual-size'] === 'number' ? j['actual-size'] : undefined,
    backingFile: typeof j['backing-filename'] === 'string' ? j['backing-filename'] : undefined,
    dataFile: typeof specific?.['data-file'] === 'string' ? (specific['data-file'] as string) : undefined,
  };
}

/**
 * Finds an image's format and virtual size and refuses what must not be written: formats outside
 * {@link PERMITTED_FORMATS}, and qcow2 images with a backing file or an external data file (qemu-img
 * would read another file of the conductor's). `what` names the image (its URL) in errors.
 */
export async function inspectImage(file: string, what: string, opts: QemuImgOptions = {}): Promise<ImageInspection> {
  const format = await detectFormat(file);
  const fileSize = (await stat(file)).size;
  if (!PERMITTED_FORMATS.includes(format)) {
    throw imageError('format', 'imageFormatRefused', { image: what, format, accepted: PERMITTED_FORMATS.join(', ') });
  }
  if (format !== 'qcow2') return { format, virtualSize: fileSize, fileSize };
  const header = await readQcow2Header(file);
  if (header.hasBackingFile) throw imageError('format', 'imageBackingFile', { image: what });
  if (header.hasExternalDataFile) throw imageError('format', 'imageDataFile', { image: what });
  const info = await qemuImgInfo(file, 'qcow2', opts);
  // NOTE: a second opinion on what the header said: qemu-img must read the same qcow2, alone and of the same size.
  const read = { image: what, format: info.format };
  if (info.backingFile) throw imageError('format', 'qemuReadsBackingFile', { ...read, backing: info.backingFile });
  if (info.dataFile) throw imageError('format', 'qemuReadsDataFile', { ...read, data: info.dataFile });
  if (info.format !== 'qcow2') throw imageError('format', 'qemuReadsOtherFormat', read);
  if (info.virtualSize !== header.virtualSize) {
    throw imageError('format', 'qemuVirtualSizeMismatch', { image: what, qemu: info.virtualSize, header: header.virtualSize });
  }
  return { format, virtualSize: info.virtualSize, fileSize };
}

/**
 * Converts a qcow2 image to raw: `qemu-img convert -f qcow2 -O raw src dest` (dest is sparse). Checks
 * that the result has the image's virtual size. `dest` is removed if the conversion fails.
 */
export async function convertToRaw(src: string, dest: string, opts: QemuImgOptions & { expectedSize?: number } = {}): Promise<void> {
  const bin = await findQemuImg(opts.qemuImg);
  try {
    await run(bin, ['convert', '-f', 'qcow2', '-O', 'raw', src, dest], opts.signal);
    const size = (await stat(dest)).size;
    if (opts.expectedSize !== undefined && size !== opts.expectedSize) {
      throw imageError('convert', 'qemuImgConvertSize', { size, file: src, expected: opts.expectedSize });
    }
  } catch (err) {
    await rm(dest, { force: true }).catch(() => undefined);
    throw err;
  }
}

/**
 * Throws unless image `image` (its URL or name) of `imageBytes` (its virtual size) fits on a disk of
 * `diskBytes`, naming both sizes. Callers check before writing anything to the machine.
 */
export function checkFits(imageBytes: number, diskBytes: number, image: string): void {
  if (!(Number.isFinite(imageBytes) && imageBytes >= 0)) throw imageError('too_large', 'imageSizeUnknown', { image });
  if (!(Number.isFinite(diskBytes) && diskBytes > 0)) throw imageError('too_large', 'rootDiskSizeUnknown', { size: diskBytes });
  if (imageBytes > diskBytes) {
    throw imageError('too_large', 'imageTooLargeForDisk', { image, size: formatBytes(imageBytes), disk: formatBytes(diskBytes) });
  }
}
