/**
 * The TFTP wire format: RFC 1350 packets (RRQ, WRQ, DATA, ACK, ERROR) and the OACK of the option
 * extension (RFC 2347). All numbers are 16-bit big-endian; strings are NUL-terminated.
 */

/** Packet opcodes (RFC 1350 §5, RFC 2347). */
export const OPCODE = { RRQ: 1, WRQ: 2, DATA: 3, ACK: 4, ERROR: 5, OACK: 6 } as const;

/** ERROR packet codes (RFC 1350 appendix, RFC 2347 adds 8). */
export const ERROR_CODE = {
  NOT_DEFINED: 0,
  FILE_NOT_FOUND: 1,
  ACCESS_VIOLATION: 2,
  DISK_FULL: 3,
  ILLEGAL_OPERATION: 4,
  UNKNOWN_TID: 5,
  FILE_EXISTS: 6,
  NO_SUCH_USER: 7,
  OPTION_REFUSED: 8,
} as const;

/** Transfer modes this codec recognises (`mail` is obsolete and never served). */
export type TftpMode = 'netascii' | 'octet' | 'mail';

/** A read or write request with its options in arrival order (names lower-cased, RFC 2347: case-insensitive). */
export interface TftpRequest {
  op: 'RRQ' | 'WRQ';
  filename: string;
  /** The mode as sent, lower-cased (may be one this server does not serve). */
  mode: string;
  options: [name: string, value: string][];
}

/** Any decoded packet. */
export type TftpPacket =
  | TftpRequest
  | { op: 'DATA'; block: number; data: Buffer }
  | { op: 'ACK'; block: number }
  | { op: 'ERROR'; code: number; message: string }
  | { op: 'OACK'; options: [name: string, value: string][] };

/** A datagram that is not a well-formed TFTP packet; `message` says why (it goes into ERROR 4). */
export class TftpDecodeError extends Error {
  override readonly name = 'TftpDecodeError';
}

/** Reads NUL-terminated strings from `buf` starting at `offset`; a final unterminated field is dropped. */
function strings(buf: Buffer, offset: number): string[] {
  const out: string[] = [];
  let start = offset;
  for (;;) {
    const end = buf.indexOf(0, start);
    if (end < 0) return out;
    out.push(buf.toString('utf8', start, end));
    start = end + 1;
  }
}

/** Option name/value pairs from a flat list; empty names (padding some ROMs append) are skipped. */
function pairs(fields: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const name = (fields[i] as string).toLowerCase();
    if (name) out.push([name, fields[i + 1] as string]);
  }
  return out;
}

/** Decodes one datagram; throws {@link TftpDecodeError} for anything malformed. */
export function decodePacket(buf: Buffer): TftpPacket {
  if (buf.length < 2) throw new TftpDecodeError('Packet shorter than an opcode');
  const opcode = buf.readUInt16BE(0);
  switch (opcode) {
    case OPCODE.RRQ:
    case OPCODE.WRQ: {
      const fields = strings(buf, 2);
      if (fields.length < 2) throw new TftpDecodeError('Request without a NUL-terminated file name and mode');
      const [filename, mode] = fields as [string, string];
      return { op: opcode === OPCODE.RRQ ? 'RRQ' : 'WRQ', filename, mode: mode.toLowerCase(), options: pairs(fields.slice(2)) };
    }
    case OPCODE.DATA:
      if (buf.length < 4) throw new TftpDecodeError('DATA packet without a block number');
      return { op: 'DATA', block: buf.readUInt16BE(2), data: buf.subarray(4) };
    case OPCODE.ACK:
      if (buf.length < 4) throw new TftpDecodeError('ACK packet without a block number');
      return { op: 'ACK', block: buf.readUInt16BE(2) };
    case OPCODE.ERROR: {
      if (buf.length < 4) throw new TftpDecodeError('ERROR packet without an error code');
      const end = buf.indexOf(0, 4);
      return { op: 'ERROR', code: buf.readUInt16BE(2), message: buf.toString('utf8', 4, end < 0 ? buf.length : end) };
    }
    case OPCODE.OACK:
      return { op: 'OACK', options: pairs(strings(buf, 2)) };
    default:
      throw new TftpDecodeError(`Unknown opcode ${opcode}`);
  }
}

function withStrings(opcode: number, fields: string[]): Buffer {
  const parts = fields.map((f) => Buffer.from(f, 'utf8'));
  const buf = Buffer.alloc(2 + parts.reduce((n, p) => n + p.length + 1, 0));
  buf.writeUInt16BE(opcode, 0);
  let at = 2;
  for (const p of parts) {
    at += p.copy(buf, at);
    buf[at++] = 0;
  }
  return buf;
}

/** RRQ or WRQ with options (RFC 2347 §2). */
export function encodeRequest(op: 'RRQ' | 'WRQ', filename: string, mode: string, options: Iterable<[string, string]> = []): Buffer {
  return withStrings(op === 'RRQ' ? OPCODE.RRQ : OPCODE.WRQ, [filename, mode, ...[...options].flat()]);
}

/** OACK listing the accepted options with their final values. */
export function encodeOack(options: Iterable<[string, string]>): Buffer {
  return withStrings(OPCODE.OACK, [...options].flat());
}

/** ACK of a (16-bit) block number. */
export function encodeAck(block: number): Buffer {
  const buf = Buffer.allocUnsafe(4);
  buf.writeUInt16BE(OPCODE.ACK, 0);
  buf.writeUInt16BE(block & 0xffff, 2);
  return buf;
}

/** ERROR packet; the message is for people (RFC 1350 §5: netascii, NUL-terminated). */
export function encodeError(code: number, message: string): Buffer {
  const text = Buffer.from(message, 'utf8');
  const buf = Buffer.alloc(4 + text.length + 1);
  buf.writeUInt16BE(OPCODE.ERROR, 0);
  buf.writeUInt16BE(code, 2);
  text.copy(buf, 4);
  return buf;
}

/** DATA packet (copies `data`; the server's hot path sends a header and a slice instead, see {@link writeDataHeader}). */
export function encodeData(block: number, data: Uint8Array): Buffer {
  const buf = Buffer.allocUnsafe(4 + data.length);
  writeDataHeader(buf, block);
  buf.set(data, 4);
  return buf;
}

/** Writes the 4-byte DATA header (opcode, 16-bit block number) at the start of `buf`. */
export function writeDataHeader(buf: Buffer, block: number): void {
  buf.writeUInt16BE(OPCODE.DATA, 0);
  buf.writeUInt16BE(block & 0xffff, 2);
}
