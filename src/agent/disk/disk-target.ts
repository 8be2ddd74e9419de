/**
 * A disk the agent writes: a block device (`/dev/sda`) on a real machine, or a regular file standing for
 * the disk of a simulated machine. Positioned reads and writes, its size, and zeroing. A regular file can
 * be blanked (every byte zero) without writing, by truncating it to 0 and back, which also keeps it sparse.
 *
 * Bulk writes (the image) can bypass the page cache ({@link DiskTarget.writeDirect}, `O_DIRECT`): the
 * bytes go from the agent's buffer to the device, with no copy into cache pages, no cache pages to
 * allocate in the machine's small RAM and no writeback to do afterwards: a 2 GiB image took 0.4 s of
 * the thread pool's CPU instead of 5.8 s, and well under half the time (docs/bench.md). A disk that
 * cannot be opened with `O_DIRECT` (tmpfs before Linux 6.6, some FUSE file systems), or that refuses a
 * direct write (EINVAL: say, memory it finds unaligned), is written through the cache from then on.
 */
import { constants } from 'node:fs';
import { open, readFile, realpath, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/** One MiB: the alignment of partitions and the unit of zeroing. */
export const MIB = 1024 * 1024;

/** Offset, length and memory alignment of direct writes: a multiple of every logical sector size (512, 4096). */
export const DIRECT_ALIGN = 4096;

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
  /**
   * Writes `data`, a view of memory from {@link alignedBuffers} at a multiple of {@link DIRECT_ALIGN}, at
   * `offset`, around the page cache where the disk allows it; a tail shorter than DIRECT_ALIGN (or all of
   * it, when `offset` is unaligned or the disk refuses direct I/O) goes through the cache. Resolves with the
   * bytes written through the cache, which only {@link DiskTarget.sync} makes durable (direct ones are on the
   * device, short of its own write cache, which `sync` also flushes).
   */
  writeDirect(offset: number, data: Uint8Array): Promise<number>;
  /** Writes zeros over [offset, offset + length). */
  zero(offset: number, length: number): Promise<void>;
  /** Regular files only: makes every byte zero, sparse, at the same size. */
  blank(): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

const ZEROS = Buffer.alloc(MIB);

/**
 * `count` buffers of `bytes` (a multiple of {@link DIRECT_ALIGN}) whose memory starts on a page boundary,
 * as `O_DIRECT` needs.
 *
 * NOTE: a Buffer's memory comes from malloc, 16-byte aligned; a WebAssembly memory is mapped by V8 with
 * mmap and so starts on a page. Should it not, the direct write fails with EINVAL and the disk goes on
 * through the cache ({@link openDisk}).
 */
export function alignedBuffers(count: number, bytes: number): Buffer[] {
  if (bytes <= 0 || bytes % DIRECT_ALIGN !== 0) throw new Error(`${bytes} bytes is not a positive multiple of ${DIRECT_ALIGN}`);
  const memory = new WasmMemory({ initial: Math.ceil((count * bytes) / 65536) });
  return Array.from({ length: count }, (_, i) => Buffer.from(memory.buffer, i * bytes, bytes));
}

// Node's WebAssembly global (its type declarations carry no value for it).
const WasmMemory = (globalThis as unknown as { WebAssembly: { Memory: new (pages: { initial: number }) => { buffer: ArrayBuffer } } }).WebAssembly.Memory;

/** Whether a direct write's `err` says the file system or device does not take it (or not from this memory). */
function directRefused(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'EINVAL' || code === 'EOPNOTSUPP';
}

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
        await writeAll(fh, offset, data);
      },
      async writeDirect(offset, data) {
        const aligned = offset % DIRECT_ALIGN === 0 ? data.length - (data.length % DIRECT_ALIGN) : 0;
        if (useDirect && aligned > 0 && offset + data.length <= size) {
          // Opened at the first direct write; a disk that cannot be opened so is written through the cache.
          const direct = await (directOpen ??= open(file, constants.O_RDWR | constants.O_DIRECT).catch(() => null));
          if (direct) {
            try {
              await writeAll(direct, offset, data.subarray(0, aligned));
              if (aligned < data.length) await disk.write(offset + aligned, data.subarray(aligned));
              return data.length - aligned;
            } catch (err) {
              if (!directRefused(err)) throw err;
            }
          }
          useDirect = false;
        }
        await disk.write(offset, data);
        return data.length;
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
      async close() {
        await (await directOpen)?.close();
        await fh.close();
      },
    };
    // The O_DIRECT handle (null: the disk cannot be opened so), and whether direct writes are still tried.
    let directOpen: Promise<FileHandle | null> | undefined;
    let useDirect = true;
    return disk;
  } catch (err) {
    await fh.close();
    throw err;
  }
}

/** Writes all of `data` at `offset` (a write may take fewer bytes than given). */
async function writeAll(fh: FileHandle, offset: number, data: Uint8Array): Promise<void> {
  let done = 0;
  while (done < data.length) {
    const { bytesWritten } = await fh.write(data, done, data.length - done, offset + done);
    done += bytesWritten;
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
