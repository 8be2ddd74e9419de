/** Helpers for the disk tests that need the page cache out of the way (O_DIRECT). */
import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import path from 'node:path';
import { DIRECT_ALIGN, alignedBuffers } from './disk-target.js';

/** The file system type `dir` lives on (findmnt, util-linux; of mounts stacked there, the last is the visible one). */
export function fsType(dir: string): string {
  return execFileSync('findmnt', ['-n', '-o', 'FSTYPE', '-T', dir], { encoding: 'utf8' }).trim().split('\n').pop()!.trim();
}

/** File systems that keep their files in the page cache itself: O_DIRECT may be taken, but bypasses nothing. */
const MEMORY_FILE_SYSTEMS = new Set(['tmpfs', 'ramfs']);

/**
 * Fails, saying what the file system lacks, unless a file in `dir` can be opened with O_DIRECT and
 * written from page-aligned memory — and, with `outsideTheCache`, unless the file system keeps its
 * files anywhere but in the page cache (tmpfs takes O_DIRECT from Linux 6.6, yet its files are page
 * cache). Without this a test of writes around the cache fails on a byte count, saying nothing of why.
 */
export async function requireDirectIo(dir: string, opts: { outsideTheCache?: boolean } = {}): Promise<void> {
  const type = fsType(dir);
  if (opts.outsideTheCache && MEMORY_FILE_SYSTEMS.has(type)) {
    throw new Error(`${dir} is on ${type}, which keeps its files in the page cache: direct I/O there neither bypasses the cache nor asks for aligned memory. Run this test with TMPDIR on a disk file system (ext4, xfs, btrfs)`);
  }
  const probeDir = await mkdtemp(path.join(dir, 'ingot-direct-probe-'));
  try {
    const file = path.join(probeDir, 'probe');
    await (await open(file, 'w')).close();
    let why: string | null = null;
    const fh = await open(file, constants.O_RDWR | constants.O_DIRECT).catch((err: NodeJS.ErrnoException) => {
      why = `opening a file with O_DIRECT fails with ${err.code}`;
      return null;
    });
    if (fh) {
      try {
        await fh.write(alignedBuffers(1, DIRECT_ALIGN)[0]!, 0, DIRECT_ALIGN, 0);
      } catch (err) {
        why = `an aligned O_DIRECT write fails with ${(err as NodeJS.ErrnoException).code}`;
      } finally {
        await fh.close();
      }
    }
    if (why) {
      throw new Error(
        `${dir} is on ${type}, which does not take direct I/O (${why}): run these tests with TMPDIR on a file system that does (ext4, xfs, btrfs; tmpfs from Linux 6.6)`,
      );
    }
  } finally {
    await rm(probeDir, { recursive: true, force: true });
  }
}
