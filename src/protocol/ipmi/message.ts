/**
 * IPMI LAN message framing (IPMI v2.0 §13.8, figure 13-4): the request and response messages that an
 * IPMI payload carries, with their two two's-complement checksums.
 */
import { IpmiDecodeError, need } from './errors.js';

/** The BMC's responder address on IPMB (rsAddr of requests). */
export const BMC_SLAVE_ADDRESS = 0x20;
/** The requester address used by remote consoles ("software ID" 0x81). */
export const REMOTE_CONSOLE_SWID = 0x81;

/** Two's-complement checksum: the byte that makes the sum of `bytes` plus it equal 0 modulo 256. */
export function checksum(bytes: Uint8Array): number {
  let sum = 0;
  for (const b of bytes) sum = (sum + b) & 0xff;
  return (0x100 - sum) & 0xff;
}

/** A request message, console to BMC. */
export interface IpmiRequest {
  netFn: number;
  cmd: number;
  data: Buffer;
  /** Request sequence number, 0..63; echoed in the response. */
  rqSeq: number;
  rsAddr?: number;
  rsLun?: number;
  rqAddr?: number;
  rqLun?: number;
}

/** A response message, BMC to console. `netFn` is the response (odd) netFn. */
export interface IpmiResponse {
  netFn: number;
  cmd: number;
  rqSeq: number;
  completionCode: number;
  data: Buffer;
  rqAddr?: number;
  rqLun?: number;
  rsAddr?: number;
  rsLun?: number;
}

/** Encodes a request: rsAddr, netFn/rsLUN, checksum 1, rqAddr, rqSeq/rqLUN, cmd, data, checksum 2. */
export function encodeIpmiRequest(req: IpmiRequest): Buffer {
  const out = Buffer.alloc(7 + req.data.length);
  writeHeader(out, [req.rsAddr ?? BMC_SLAVE_ADDRESS, req.rsLun], [req.rqAddr ?? REMOTE_CONSOLE_SWID, req.rqLun], req);
  req.data.copy(out, 6);
  out[out.length - 1] = checksum(out.subarray(3, out.length - 1));
  return out;
}

/**
 * The six bytes both messages start with: the receiver's address, netFn and the receiver's LUN, the
 * header checksum, the sender's address, the sequence number and the sender's LUN, the command.
 */
function writeHeader(out: Buffer, [toAddr, toLun]: [number, number | undefined], [fromAddr, fromLun]: [number, number | undefined], m: { netFn: number; rqSeq: number; cmd: number }): void {
  out[0] = toAddr;
  out[1] = ((m.netFn & 0x3f) << 2) | ((toLun ?? 0) & 0x03);
  out[2] = checksum(out.subarray(0, 2));
  out[3] = fromAddr;
  out[4] = ((m.rqSeq & 0x3f) << 2) | ((fromLun ?? 0) & 0x03);
  out[5] = m.cmd;
}

function checkSums(buf: Uint8Array, what: string): void {
  need(buf, 0, 7, what);
  if (checksum(buf.subarray(0, 2)) !== buf[2]) throw new IpmiDecodeError(`${what}: header checksum mismatch`);
  if (checksum(buf.subarray(3, buf.length - 1)) !== buf[buf.length - 1]) throw new IpmiDecodeError(`${what}: data checksum mismatch`);
}

/** The header {@link writeHeader} writes, read back (the checksums checked already). */
function readHeader(buf: Uint8Array): { toAddr: number; toLun: number; fromAddr: number; fromLun: number; netFn: number; rqSeq: number; cmd: number } {
  const at = (i: number): number => buf[i] as number;
  return { toAddr: at(0), netFn: at(1) >> 2, toLun: at(1) & 0x03, fromAddr: at(3), rqSeq: at(4) >> 2, fromLun: at(4) & 0x03, cmd: at(5) };
}

/** Decodes and checks a request message. */
export function decodeIpmiRequest(buf: Uint8Array): IpmiRequest {
  checkSums(buf, 'IPMI request');
  const h = readHeader(buf);
  return {
    rsAddr: h.toAddr, rsLun: h.toLun, rqAddr: h.fromAddr, rqLun: h.fromLun, netFn: h.netFn, rqSeq: h.rqSeq, cmd: h.cmd,
    data: Buffer.from(buf.subarray(6, buf.length - 1)),
  };
}

/** Encodes a response: rqAddr, netFn/rqLUN, checksum 1, rsAddr, rqSeq/rsLUN, cmd, completion code, data, checksum 2. */
export function encodeIpmiResponse(res: IpmiResponse): Buffer {
  const out = Buffer.alloc(8 + res.data.length);
  writeHeader(out, [res.rqAddr ?? REMOTE_CONSOLE_SWID, res.rqLun], [res.rsAddr ?? BMC_SLAVE_ADDRESS, res.rsLun], res);
  out[6] = res.completionCode;
  res.data.copy(out, 7);
  out[out.length - 1] = checksum(out.subarray(3, out.length - 1));
  return out;
}

/** Decodes and checks a response message; the completion code is split from the data. */
export function decodeIpmiResponse(buf: Uint8Array): IpmiResponse {
  checkSums(buf, 'IPMI response');
  if (buf.length < 8) throw new IpmiDecodeError('IPMI response: no completion code');
  const h = readHeader(buf);
  return {
    rqAddr: h.toAddr, rqLun: h.toLun, rsAddr: h.fromAddr, rsLun: h.fromLun, netFn: h.netFn, rqSeq: h.rqSeq, cmd: h.cmd,
    completionCode: buf[6] as number,
    data: Buffer.from(buf.subarray(7, buf.length - 1)),
  };
}

/** The response to `req` with `completionCode` and `data`: response netFn, addresses and LUNs swapped back. */
export function responseTo(req: IpmiRequest, completionCode: number, data: Buffer = Buffer.alloc(0)): IpmiResponse {
  return {
    netFn: req.netFn | 0x01,
    cmd: req.cmd,
    rqSeq: req.rqSeq,
    completionCode,
    data,
    rqAddr: req.rqAddr ?? REMOTE_CONSOLE_SWID,
    rqLun: req.rqLun ?? 0,
    rsAddr: req.rsAddr ?? BMC_SLAVE_ADDRESS,
    rsLun: req.rsLun ?? 0,
  };
}
