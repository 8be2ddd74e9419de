/**
 * RMCP, the UDP framing under IPMI over LAN (IPMI v2.0 chapter 13, DMTF ASF 2.0): version 6,
 * sequence 0xff (no RMCP acknowledgement), then the class byte: 0x07 IPMI, 0x06 ASF.
 */
import { IpmiDecodeError, need } from './errors.js';

export const RMCP_VERSION = 0x06;
/** Sequence number meaning "do not send an RMCP ACK" (IPMI traffic always uses it). */
export const RMCP_SEQ_NO_ACK = 0xff;
export const RMCP_CLASS_ASF = 0x06;
export const RMCP_CLASS_IPMI = 0x07;
export const RMCP_HEADER_LENGTH = 4;

/** The ASF IANA enterprise number (4542), carried by presence ping/pong. */
export const ASF_IANA = 4542;
export const ASF_TYPE_PING = 0x80;
export const ASF_TYPE_PONG = 0x40;

/** The four-byte RMCP header for `cls`. */
export function rmcpHeader(cls: number, seq = RMCP_SEQ_NO_ACK): Buffer {
  return Buffer.from([RMCP_VERSION, 0x00, seq, cls]);
}

export interface RmcpHeader {
  version: number;
  seq: number;
  /** Class of message, without the ACK bit (bit 7). */
  cls: number;
  ack: boolean;
}

/** Reads and checks the RMCP header at the start of a datagram. */
export function decodeRmcpHeader(datagram: Uint8Array): RmcpHeader {
  need(datagram, 0, RMCP_HEADER_LENGTH, 'RMCP header');
  const version = datagram[0] as number;
  if (version !== RMCP_VERSION) throw new IpmiDecodeError(`RMCP version 0x${version.toString(16)} is not 0x06`);
  const clsByte = datagram[3] as number;
  return { version, seq: datagram[2] as number, cls: clsByte & 0x1f, ack: (clsByte & 0x80) !== 0 };
}

/** An ASF presence ping or pong (DMTF ASF 2.0). */
export interface AsfMessage {
  type: number;
  tag: number;
  data: Buffer;
}

/** Encodes an ASF message as a whole datagram (RMCP header included). */
export function encodeAsf(msg: AsfMessage): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(ASF_IANA, 0);
  head[4] = msg.type;
  head[5] = msg.tag;
  head[6] = 0;
  head[7] = msg.data.length;
  return Buffer.concat([rmcpHeader(RMCP_CLASS_ASF), head, msg.data]);
}

/** Decodes the ASF part of a datagram whose RMCP class is ASF. */
export function decodeAsf(datagram: Uint8Array): AsfMessage {
  need(datagram, RMCP_HEADER_LENGTH, 8, 'ASF message');
  const buf = Buffer.from(datagram.buffer, datagram.byteOffset, datagram.byteLength);
  if (buf.readUInt32BE(4) !== ASF_IANA) throw new IpmiDecodeError('ASF message with a foreign IANA number');
  const len = buf[11] as number;
  need(buf, 12, len, 'ASF data');
  return { type: buf[8] as number, tag: buf[9] as number, data: Buffer.from(buf.subarray(12, 12 + len)) };
}

/**
 * The pong answering a presence ping: IANA 4542, no OEM data, "IPMI supported" in the supported
 * entities byte, no interactions.
 */
export function asfPong(tag: number): Buffer {
  const data = Buffer.alloc(16);
  data.writeUInt32BE(ASF_IANA, 0); // IANA
  data.writeUInt32BE(0, 4); // OEM defined
  data[8] = 0x81; // supported entities: IPMI, ASF v1.0
  data[9] = 0x00; // supported interactions
  return encodeAsf({ type: ASF_TYPE_PONG, tag, data });
}
