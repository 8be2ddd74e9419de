/**
 * A minimal POSIX ustar writer (regular files only), enough to pack the agent's log files. Hand-written
 * so the bundled agent carries no dependency; see IEEE Std 1003.1 "pax — ustar Interchange Format".
 */

/** One file of an archive. */
export interface TarEntry {
  /** Path inside the archive, '/'-separated, at most 255 bytes. */
  name: string;
  data: Uint8Array;
  /** Modification time, seconds since the epoch (default 0). */
  mtime?: number;
  /** Permission bits (default 0o644). */
  mode?: number;
}

const BLOCK = 512;

function octal(value: number, width: number): string {
  // width-1 digits then NUL, as GNU tar writes numeric fields.
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

/** Splits a long name into ustar's prefix (≤155) and name (≤100) at a '/'. */
function splitName(name: string): { prefix: string; base: string } {
  if (Buffer.byteLength(name) <= 100) return { prefix: '', base: name };
  for (let i = name.lastIndexOf('/'); i > 0; i = name.lastIndexOf('/', i - 1)) {
    const prefix = name.slice(0, i);
    const base = name.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(base) <= 100) return { prefix, base };
  }
  throw new Error(`tar: name too long for ustar: ${name}`);
}

function header(entry: TarEntry): Buffer {
  const h = Buffer.alloc(BLOCK);
  const { prefix, base } = splitName(entry.name);
  h.write(base, 0, 100, 'utf8');
  h.write(octal(entry.mode ?? 0o644, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii'); // uid
  h.write(octal(0, 8), 116, 'ascii'); // gid
  h.write(octal(entry.data.length, 12), 124, 'ascii');
  h.write(octal(Math.floor(entry.mtime ?? 0), 12), 136, 'ascii');
  h.write('        ', 148, 'ascii'); // checksum counts as spaces while summing
  h.write('0', 156, 'ascii'); // regular file
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  h.write('root', 265, 'ascii');
  h.write('root', 297, 'ascii');
  h.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return h;
}

/** A ustar archive of `entries`, ending with the two zero blocks. */
export function ustar(entries: TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    parts.push(header(e), Buffer.from(e.data.buffer, e.data.byteOffset, e.data.byteLength));
    const pad = (BLOCK - (e.data.length % BLOCK)) % BLOCK;
    if (pad) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(parts);
}
