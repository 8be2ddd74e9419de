/**
 * A disk the agent writes: a block device (`/dev/sda`) on a real machine, or a regular file standing for
 * the disk of a simulated machine. Positioned reads and writes, its size, and zeroing. A regular file can
 * be blanked (every byte zero) without writing, by truncating it to 0 and back, which also keeps it sparse.
 */
import { open, readFile, realpath, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/** One MiB: the alignment of partitions and the unit of zeroing. */
export const MIB = 1024 * 1024;

/** An open disk. */
export interface DiskTarget {
  readonly path: string;
  /** Size in bytes. */
  readonly size: number;
  /** Logical sector size (512 for files). */
  readonly sectorSize: number;
  /** A regular file (a simulated disk), not a block device. */
  readonly isFile: boolean;
  read(offset: number, length: number): Promise<Buffer>;
  write(offset: number, data: Uint8Array): Promise<void>;
  /** Writes zeros over [offset, offset + length). */
  zero(offset: number, length: number): Promise<void>;
  /** Regular files only: makes every byte zero, sparse, at the same size. */
  blank(): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

const ZEROS = Buffer.alloc(MIB);

/** Reads a block device's size and sector size from sysfs (`/sys/class/block/<name>/size` is in 512-byte units). */
async function blockGeometry(device: string): Promise<{ size: number; sectorSize: number }> {
  const name = path.basename(await realpath(device));
  const sectors = Number((await readFile(`/sys/class/block/${name}/size`, 'utf8')).trim());
  let sectorSize = 512;
  try {
    sectorSize = Number((await readFile(`/sys/class/block/${name}/queue/logical_block_size`, 'utf8')).trim()) || 512;
  } catch {
    // partitions have no queue/; 512 is right for them
  }
  return { size: sectors * 512, sectorSize };
}

/** Opens `file` for reading and writing. Throws when it is neither a regular file nor a block device. */
export async function openDisk(file: string): Promise<DiskTarget> {
  const fh: FileHandle = await open(file, 'r+');
  try {
    const st = await fh.stat();
    let size: number;
    let sectorSize = 512;
    if (st.isFile()) size = st.size;
    else if (st.isBlockDevice()) ({ size, sectorSize } = await blockGeometry(file));
    else throw new Error(`${file} is neither a block device nor a regular file`);
    const isFile = st.isFile();
    const disk: DiskTarget = {
      path: file,
      size,
      sectorSize,
      isFile,
      async read(offset, length) {
        const buf = Buffer.alloc(Math.max(0, Math.min(length, size - offset)));
        let done = 0;
        while (done < buf.length) {
          const { bytesRead } = await fh.read(buf, done, buf.length - done, offset + done);
          if (bytesRead === 0) break;
          done += bytesRead;
        }
        return buf;
      },
      async write(offset, data) {
        if (offset + data.length > size) throw new Error(`write of ${data.length} bytes at ${offset} goes past the end of ${file} (${size} bytes)`);
        let done = 0;
        while (done < data.length) {
          const { bytesWritten } = await fh.write(data, done, data.length - done, offset + done);
          done += bytesWritten;
        }
      },
      async zero(offset, length) {
        for (let at = offset; at < offset + length; at += MIB) await disk.write(at, ZEROS.subarray(0, Math.min(MIB, offset + length - at)));
      },
      async blank() {
        if (!isFile) throw new Error(`${file} is a block device; only a disk file can be blanked`);
        await fh.truncate(0);
        await fh.truncate(size);
      },
      sync: () => fh.sync(),
      close: () => fh.close(),
    };
    return disk;
  } catch (err) {
    await fh.close();
    throw err;
  }
}

/** Runs `fn` with `file` open and closes it afterwards. */
export async function withDisk<T>(file: string, fn: (disk: DiskTarget) => Promise<T>): Promise<T> {
  const disk = await openDisk(file);
  try {
    return await fn(disk);
  } finally {
    await disk.close();
  }
}
