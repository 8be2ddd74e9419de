import { describe, expect, it } from 'vitest';
import { checksum, decodeIpmiRequest, decodeIpmiResponse, encodeIpmiRequest, encodeIpmiResponse, responseTo } from './message.js';
import { decodeV15Packet, encodeV15Packet, datagramKind } from './session-packet.js';
import { asfPong, decodeAsf, encodeAsf, ASF_TYPE_PING } from './rmcp.js';
import { CMD, NETFN } from './commands.js';
import { encodeChannelAuthCapsRequest } from './commands-app.js';
import { IpmiDecodeError } from './errors.js';

describe('IPMI message framing', () => {
  it('computes two’s-complement checksums', () => {
    expect(checksum(Buffer.from([0x20, 0x18]))).toBe(0xc8);
    expect(checksum(Buffer.from([0x81, 0x04, 0x01]))).toBe(0x7a);
    expect(checksum(Buffer.alloc(0))).toBe(0);
  });

  it('encodes the well-known v1.5 Get Channel Authentication Capabilities probe byte for byte', () => {
    // The probe every IPMI scanner and ipmitool lanplus send first: channel 0x0E with the v2.0 bit, admin.
    const message = encodeIpmiRequest({ netFn: NETFN.APP, cmd: CMD.APP.GET_CHANNEL_AUTH_CAPABILITIES, rqSeq: 0, data: encodeChannelAuthCapsRequest({ channel: 0x0e, v2: true, privilege: 4 }) });
    const datagram = encodeV15Packet({ sequence: 0, sessionId: 0, message });
    expect(datagram.toString('hex')).toBe('0600ff07000000000000000000092018c88100388e04b5');
    expect(datagramKind(datagram)).toBe('ipmi-v15');
    const back = decodeIpmiRequest(decodeV15Packet(datagram).message);
    expect(back).toMatchObject({ netFn: 0x06, cmd: 0x38, rqSeq: 0, rsAddr: 0x20, rqAddr: 0x81 });
    expect(back.data.toString('hex')).toBe('8e04');
  });

  it('round-trips a response with its completion code and rejects a corrupted checksum', () => {
    const req = decodeIpmiRequest(encodeIpmiRequest({ netFn: NETFN.CHASSIS, cmd: CMD.CHASSIS.GET_CHASSIS_STATUS, rqSeq: 17, data: Buffer.alloc(0) }));
    const wire = encodeIpmiResponse(responseTo(req, 0x00, Buffer.from([0x01, 0x00, 0x40])));
    const res = decodeIpmiResponse(wire);
    expect(res).toMatchObject({ netFn: 0x01, cmd: 0x01, rqSeq: 17, completionCode: 0, rqAddr: 0x81, rsAddr: 0x20 });
    expect(res.data.toString('hex')).toBe('010040');
    wire[7] = (wire[7] as number) ^ 0x01;
    expect(() => decodeIpmiResponse(wire)).toThrow(IpmiDecodeError);
    wire[7] = (wire[7] as number) ^ 0x01;
    wire[1] = (wire[1] as number) ^ 0x04;
    expect(() => decodeIpmiResponse(wire)).toThrow(/header checksum/);
  });

  it('answers an ASF presence ping with a pong carrying the same tag', () => {
    const ping = encodeAsf({ type: ASF_TYPE_PING, tag: 0x2a, data: Buffer.alloc(0) });
    expect(ping.toString('hex')).toBe('0600ff06000011be802a0000');
    expect(datagramKind(ping)).toBe('asf');
    const pong = decodeAsf(asfPong(0x2a));
    expect(pong.type).toBe(0x40);
    expect(pong.tag).toBe(0x2a);
    expect(pong.data.readUInt32BE(0)).toBe(4542);
  });

  it('rejects datagrams that are not RMCP', () => {
    expect(() => datagramKind(Buffer.from([0x05, 0, 0xff, 0x07]))).toThrow(/version/);
    expect(() => datagramKind(Buffer.from([0x06, 0]))).toThrow(IpmiDecodeError);
  });
});
