/**
 * What the TFTP server serves: a {@link TftpFile} found by a {@link TftpResolver} (generated content,
 * e.g. a PXE config rendered for the MAC named in the path) or in the root directory. Content is read
 * positionally ({@link TftpReader}) or pulled from a stream, a window at a time, never all at once.
 */
import { close, constants, fstat, open, read } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { ERROR_CODE } from './packet.js';

/** Positional reads of one opened file. */
export interface TftpReader {
  /** Reads up to `length` bytes at `position` into `buffer` at `offset`; resolves with the count (0 at the end). */
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<number>;
  /** Releases what `open()` took (file descriptor…); called once when the transfer ends. */
  close?(): Promise<void> | void;
}

/** One servable file. */
export interface TftpFile {
  /** Size in bytes as stored (what octet mode sends); answers the tsize option. Undefined: not known, tsize is not answered. */
  readonly size: number | undefined;
  /** Opens the content for one transfer: a positional reader or a stream (read with backpressure, destroyed at the end). */
  open(): Promise<TftpReader | Readable> | TftpReader | Readable;
}

/** The client of a request. */
export interface TftpRemote {
  address: string;
  port: number;
  family: 'IPv4' | 'IPv6';
}

/**
 * Finds generated or mapped files before the root directory is looked at. Gets the normalised path
 * (relative, `/`-separated, no `.`/`..`, e.g. `pxelinux.cfg/01-52-54-00-12-34-56`) and the client;
 * returns null to fall through to the root directory, or throws {@link TftpError} to refuse.
 */
export type TftpResolver = (path: string, remote: TftpRemote) => Promise<TftpFile | null> | TftpFile | null;

/** A refusal sent to the client as an ERROR packet with this code and message. */
export class TftpError extends Error {
  override readonly name = 'TftpError';
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** A file held in memory (a rendered config, a small generated script). */
export function bufferFile(content: Buffer | string): TftpFile {
  const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const reader: TftpReader = {
    read: (buffer, offset, length, position) => {
      if (position >= data.length) return Promise.resolve(0);
      return Promise.resolve(data.copy(buffer, offset, position, Math.min(position + length, data.length)));
    },
  };
  return { size: data.length, open: () => reader };
}

/** Positional reads of an open file descriptor (callback API: less overhead per read than FileHandle). */
function fdReader(fd: number): TftpReader {
  return {
    read: (buffer, offset, length, position) =>
      new Promise((resolve, reject) => read(fd, buffer, offset, length, position, (err, n) => (err ? reject(err) : resolve(n)))),
    close: () => new Promise<void>((resolve) => close(fd, () => resolve())),
  };
}

function openNoFollow(file: string): Promise<number> {
  // O_NOFOLLOW: the checked real path must not have become a symlink since it was checked.
  return new Promise((resolve, reject) => open(file, constants.O_RDONLY | constants.O_NOFOLLOW, (err, fd) => (err ? reject(err) : resolve(fd))));
}

function fstatSize(fd: number): Promise<{ size: number; file: boolean }> {
  return new Promise((resolve, reject) => fstat(fd, (err, st) => (err ? reject(err) : resolve({ size: st.size, file: st.isFile() }))));
}

function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Normalises a requested file name to a path relative to the root, or explains the refusal. Absolute
 * names are taken relative to the root (PXE ROMs ask for `/pxelinux.0` as often as `pxelinux.0`);
 * any `..` segment is refused outright, even one that would stay inside the root.
 */
export function normaliseTftpPath(name: string): { ok: true; path: string } | { ok: false; reason: string } {
  // NOTE: Windows deployment clients (WDS, some UEFI builds) send `\boot\x64\wdsnbp.com`; dnsmasq and
  // tftpd-hpa's usual remap rule treat `\` as `/`, and so does Ingot.
  const segments = name.replaceAll('\\', '/').split('/');
  const kept: string[] = [];
  for (const s of segments) {
    if (s === '' || s === '.') continue;
    if (s === '..') return { ok: false, reason: `Access violation: '..' is not allowed in a file name (${JSON.stringify(name)})` };
    kept.push(s);
  }
  if (kept.length === 0) return { ok: false, reason: `Access violation: no file name in ${JSON.stringify(name)}` };
  return { ok: true, path: kept.join('/') };
}

/**
 * Serves files under one directory. `root` must be its real path (no symlinks in it); a file whose real
 * path leaves the root (a symlink pointing out) is refused, symlinks that stay inside are followed.
 */
export function rootResolver(root: string): (relative: string) => Promise<TftpFile | null> {
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  return async (relative) => {
    let real: string;
    try {
      real = await realpath(path.join(root, relative));
    } catch (err) {
      const code = errno(err);
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENAMETOOLONG') return null;
      if (code === 'EACCES' || code === 'ELOOP') throw new TftpError(ERROR_CODE.ACCESS_VIOLATION, `Access violation: ${relative}: ${code}`);
      throw err;
    }
    if (!real.startsWith(prefix)) throw new TftpError(ERROR_CODE.ACCESS_VIOLATION, `Access violation: ${relative} leads outside the TFTP root`);
    const st = await stat(real);
    if (!st.isFile()) throw new TftpError(ERROR_CODE.FILE_NOT_FOUND, `Not a regular file: ${relative}`);
    return {
      size: st.size,
      open: async () => {
        let fd: number;
        try {
          fd = await openNoFollow(real);
        } catch (err) {
          const code = errno(err);
          if (code === 'ENOENT') throw new TftpError(ERROR_CODE.FILE_NOT_FOUND, `File not found: ${relative}`);
          if (code === 'EACCES' || code === 'ELOOP') throw new TftpError(ERROR_CODE.ACCESS_VIOLATION, `Access violation: ${relative}: ${code}`);
          throw err;
        }
        const reader = fdReader(fd);
        const now = await fstatSize(fd).catch(async (err: unknown) => {
          await reader.close?.();
          throw err;
        });
        if (!now.file) {
          await reader.close?.();
          throw new TftpError(ERROR_CODE.FILE_NOT_FOUND, `Not a regular file: ${relative}`);
        }
        return reader;
      },
    };
  };
}
