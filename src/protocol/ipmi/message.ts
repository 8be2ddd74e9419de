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
  out[0] = req.rsAddr ?? BMC_SLAVE_ADDRESS;
  out[1] = ((req.netFn & 0x3f) << 2) | ((req.rsLun ?? 0) & 0x03);
  out[2] = checksum(out.subarray(0, 2));
  out[3] = req.rqAddr ?? REMOTE_CONSOLE_SWID;
  out[4] = ((req.rqSeq & 0x3f) << 2) | ((req.rqLun ?? 0) & 0x03);
  out[5] = req.cmd;
  req.data.copy(out, 6);
  out[out.length - 1] = checksum(out.subarray(3, out.length - 1));
  return out;
}

function checkSums(buf: Uint8Array, what: string): void {
  need(buf, 0, 7, what);
  if (checksum(buf.subarray(0, 2)) !== buf[2]) throw new IpmiDecodeError(`${what}: header checksum mismatch`);
  if (checksum(buf.subarray(3, buf.length - 1)) !== buf[buf.length - 1]) throw new IpmiDecodeError(`${what}: data checksum mismatch`);
}

/** Decodes and checks a request message. */
export function decodeIpmiRequest(buf: Uint8Array): IpmiRequest {
  checkSums(buf, 'IPMI request');
  return {
    rsAddr: buf[0] as number,
    netFn: (buf[1] as number) >> 2,
    rsLun: (buf[1] as number) & 0x03,
    rqAddr: buf[3] as number,
    rqSeq: (buf[4] as number) >> 2,
    rqLun: (buf[4] as number) & 0x03,
    cmd: buf[5] as number,
    data: Buffer.from(buf.subarray(6, buf.length - 1)),
  };
}

/** Encodes a response: rqAddr, netFn/rqLUN, checksum 1, rsAddr, rqSeq/rsLUN, cmd, completion code, data, checksum 2. */
export function encodeIpmiResponse(res: IpmiResponse): Buffer {
  const out = Buffer.alloc(8 + res.data.length);
  out[0] = res.rqAddr ?? REMOTE_CONSOLE_SWID;
  out[1] = ((res.netFn & 0x3f) << 2) | ((res.rqLun ?? 0) & 0x03);
  out[2] = checksum(out.subarray(0, 2));
  out[3] = res.rsAddr ?? BMC_SLAVE_ADDRESS;
  out[4] = ((res.rqSeq & 0x3f) << 2) | ((res.rsLun ?? 0) & 0x03);
  out[5] = res.cmd;
  out[6] = res.completionCode;
  res.data.copy(out, 7);
  out[out.length - 1] = checksum(out.subarray(3, out.length - 1));
  return out;
}

/** Decodes and checks a response message; the completion code is split from the data. */
export function decodeIpmiResponse(buf: Uint8Array): IpmiResponse {
  checkSums(buf, 'IPMI response');
  if (buf.length < 8) throw new IpmiDecodeError('IPMI response: no completion code');
  return {
    rqAddr: buf[0] as number,
    netFn: (buf[1] as number) >> 2,
    rqLun: (buf[1] as number) & 0x03,
    rsAddr: buf[3] as number,
    rqSeq: (buf[4] as number) >> 2,
    rsLun: (buf[4] as number) & 0x03,
    cmd: buf[5] as number,
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
