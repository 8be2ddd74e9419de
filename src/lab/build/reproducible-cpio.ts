/**
 * A reproducible initramfs: a `newc` cpio archive of a directory, written by `busybox cpio -o -H newc`
 * (GNU cpio is not needed), compressed with lz4, gzip (Node's zlib) or zstd. The same tree gives the same
 * bytes, whoever builds it and wherever: entries sorted by name, every mtime set to one fixed time,
 * modes normalised (0755 directories and executables, 0644 the rest), owner 0:0, device numbers
 * dropped and inode numbers renumbered from the archive's order.
 */
import { createWriteStream } from 'node:fs';
import { chmod, lstat, lutimes, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { pipeTool } from './build-tools.js';

/** The time every archived file carries: 2024-01-01T00:00:00Z. */
export const REPRODUCIBLE_EPOCH_S = 1_704_067_200;

/**
 * How the archive is compressed; Debian's kernels read all three (CONFIG_RD_LZ4, CONFIG_RD_GZIP,
 * CONFIG_RD_ZSTD). lz4 is the largest but unpacks fastest: under QEMU's TCG the kernel unpacks
 * Ingot's 113 MB ramdisk in ~0.9 s from lz4, ~3.3 s from gzip and ~4.2 s from zstd.
 */
export type RamdiskCompression = 'lz4' | 'gzip' | 'zstd';

/** Every {@link RamdiskCompression}, the default first. */
export const RAMDISK_COMPRESSIONS: readonly RamdiskCompression[] = ['lz4', 'gzip', 'zstd'];

/** Options of {@link writeReproducibleCpio}. */
export interface CpioOptions {
  /** The directory archived as `/`. */
  root: string;
  /** The compressed archive to write. */
  out: string;
  /** busybox (with the `cpio` applet). */
  busybox: string;
  compression: RamdiskCompression;
  /** The lz4 or zstd program, for their compression (default: found on PATH). */
  compressor?: string;
  signal?: AbortSignal;
}

/** Every path under `root`, relative, sorted by byte order (so each directory precedes its contents). */
async function listTree(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    for (const entry of await readdir(path.join(root, rel), { withFileTypes: true })) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      out.push(child);
      if (entry.isDirectory()) await walk(child);
    }
  };
  await walk('');
  return out.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

/** Normalises modes and sets every mtime of the tree to {@link REPRODUCIBLE_EPOCH_S}. */
async function normaliseTree(root: string, entries: readonly string[]): Promise<void> {
  for (const rel of [...entries].reverse()) {
    const file = path.join(root, rel);
    const st = await lstat(file);
    if (st.isDirectory()) await chmod(file, 0o755);
    else if (st.isFile()) await chmod(file, st.mode & 0o111 ? 0o755 : 0o644);
    await lutimes(file, REPRODUCIBLE_EPOCH_S, REPRODUCIBLE_EPOCH_S);
  }
  await chmod(root, 0o755);
  await lutimes(root, REPRODUCIBLE_EPOCH_S, REPRODUCIBLE_EPOCH_S);
}

/** Writes the archive; resolves with its size in bytes and the number of entries. */
export async function writeReproducibleCpio(opts: CpioOptions): Promise<{ bytes: number; entries: number; rawBytes: number }> {
  const entries = await listTree(opts.root);
  await normaliseTree(opts.root, entries);
  let rawBytes = 0;
  const consume = async (stdout: Readable): Promise<void> => {
    stdout.on('data', (chunk: Buffer) => {
      rawBytes += chunk.length;
    });
    if (opts.compression === 'gzip') {
      // Node's gzip header carries no file name and mtime 0, as `gzip -n` does.
      await pipeline(stdout, createGzip({ level: 6 }), createWriteStream(opts.out), { signal: opts.signal });
    } else {
      // NOTE: the kernel reads lz4's legacy frame format only (`-l`).
      const args = opts.compression === 'lz4' ? ['-l', '-9', '-q', '-c'] : ['-3', '-q', '-c', '-'];
      await pipeTool(opts.compressor ?? opts.compression, args, stdout, async (zout) => pipeline(zout, createWriteStream(opts.out), { signal: opts.signal }), { signal: opts.signal, timeoutMs: 600_000 });
    }
  };
  await pipeTool(opts.busybox, ['cpio', '-o', '-H', 'newc', '-R', '0:0', '--ignore-devno', '--renumber-inodes'], `${entries.join('\n')}\n`, consume, {
    cwd: opts.root,
    signal: opts.signal,
    timeoutMs: 600_000,
  });
  return { bytes: (await stat(opts.out)).size, entries: entries.length, rawBytes };
}
