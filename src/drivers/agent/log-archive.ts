/**
 * The agent's logs as Ingot keeps them: the gzipped tar the agent sends (`log.collect_system_logs`)
 * with every text file masked, so a password or token the ramdisk logged (a URL with credentials, a
 * command line, the node's own secrets) is not kept on the conductor's disk. Entries keep their names,
 * modes and times; only the size and checksum of a changed header are written again. An archive that
 * cannot be read whole is refused rather than kept unmasked.
 */
import { gunzipSync, gzipSync } from 'node:zlib';

const BLOCK = 512;
const SIZE_AT = 124;
const CHECKSUM_AT = 148;
const TYPE_AT = 156;

function readOctal(h: Buffer, at: number, width: number): number {
  if ((h[at] ?? 0) & 0x80) throw new Error('tar: base-256 numbers are not supported');
  const text = h.toString('ascii', at, at + width).replace(/[\0 ]+$/, '').trim();
  if (!/^[0-7]*$/.test(text)) throw new Error('tar: a numeric field is not octal');
  return text === '' ? 0 : parseInt(text, 8);
}

function checksum(h: Buffer): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= CHECKSUM_AT && i < CHECKSUM_AT + 8 ? 0x20 : (h[i] as number);
  return sum;
}

/** The text of `data` when it is UTF-8 without NUL bytes (a log file), else null. */
function textOf(data: Buffer): string | null {
  if (data.includes(0)) return null;
  const text = data.toString('utf8');
  return Buffer.byteLength(text) === data.length && !text.includes('\uFFFD') ? text : null;
}

/** `tar` (uncompressed) with `mask` applied to each regular text file. */
export function maskTar(tar: Buffer, mask: (text: string) => string): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  let sizeOverridden = false;
  while (at + BLOCK <= tar.length) {
    const h = tar.subarray(at, at + BLOCK);
    if (h.every((b) => b === 0)) {
      parts.push(tar.subarray(at));
      return Buffer.concat(parts);
    }
    if (readOctal(h, CHECKSUM_AT, 8) !== checksum(h)) throw new Error('tar: a header checksum does not match');
    const size = readOctal(h, SIZE_AT, 12);
    const end = at + BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    if (end > tar.length) throw new Error('tar: an entry runs past the end');
    const data = tar.subarray(at + BLOCK, at + BLOCK + size);
    const type = String.fromCharCode(h[TYPE_AT] as number);
    const text = (type === '0' || type === '\0' || type === 'x') && !sizeOverridden ? textOf(data) : null;
    const masked = text === null ? null : mask(text);
    if (masked === null || masked === text) {
      parts.push(tar.subarray(at, end));
    } else {
      const body = Buffer.from(masked, 'utf8');
      const header = Buffer.from(h);
      header.write(`${body.length.toString(8).padStart(11, '0')}\0`, SIZE_AT, 'ascii');
      header.write(`${checksum(header).toString(8).padStart(6, '0')}\0 `, CHECKSUM_AT, 'ascii');
      parts.push(header, body, Buffer.alloc((BLOCK - (body.length % BLOCK)) % BLOCK));
    }
    // A pax header that sets the next entry's size: that entry is kept as it is.
    sizeOverridden = type === 'x' && /(^|\n)\d+ size=/.test(data.toString('utf8'));
    at = end;
  }
  throw new Error('tar: the archive has no end');
}

/** A gzipped tar (the agent's `system_logs`, decoded from base64) with its text files masked. */
export function maskLogArchive(gzipped: Buffer, mask: (text: string) => string): Buffer {
  return gzipSync(maskTar(gunzipSync(gzipped), mask));
}
