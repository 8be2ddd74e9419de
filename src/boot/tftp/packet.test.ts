import { describe, expect, it } from 'vitest';
import { decodePacket, encodeAck, encodeData, encodeError, encodeOack, encodeRequest, ERROR_CODE, OPCODE, TftpDecodeError, writeDataHeader } from './packet.js';

describe('TFTP packet codec', () => {
  it('encodes an RRQ byte for byte as RFC 2347 lays it out', () => {
    const buf = encodeRequest('RRQ', 'pxelinux.0', 'octet', [['blksize', '1468'], ['tsize', '0']]);
    expect(buf.toString('latin1')).toBe('\x00\x01pxelinux.0\x00octet\x00blksize\x001468\x00tsize\x000\x00');
  });

  it('decodes requests with case-insensitive mode and option names, keeping values and order', () => {
    const raw = Buffer.from('\x00\x01Boot/Linux\x00OcTeT\x00BLKSIZE\x001024\x00TSize\x000\x00', 'latin1');
    expect(decodePacket(raw)).toEqual({ op: 'RRQ', filename: 'Boot/Linux', mode: 'octet', options: [['blksize', '1024'], ['tsize', '0']] });
    const wrq = decodePacket(encodeRequest('WRQ', 'up.txt', 'netascii'));
    expect(wrq).toEqual({ op: 'WRQ', filename: 'up.txt', mode: 'netascii', options: [] });
  });

  it('skips empty option names (NUL padding) and a trailing unterminated field', () => {
    const raw = Buffer.from('\x00\x01f\x00octet\x00blksize\x00512\x00\x00\x00\x00\x00tsi', 'latin1');
    expect(decodePacket(raw)).toMatchObject({ op: 'RRQ', options: [['blksize', '512']] });
  });

  it('rejects malformed packets with a reason', () => {
    expect(() => decodePacket(Buffer.from([0]))).toThrow(TftpDecodeError);
    expect(() => decodePacket(Buffer.from('\x00\x01nomode', 'latin1'))).toThrow(/file name and mode/);
    expect(() => decodePacket(Buffer.from('\x00\x01file\x00', 'latin1'))).toThrow(/file name and mode/);
    expect(() => decodePacket(Buffer.from([0, 4, 0]))).toThrow(/ACK/);
    expect(() => decodePacket(Buffer.from([0, 9, 0, 0]))).toThrow(/Unknown opcode 9/);
  });

  it('round-trips DATA, ACK, ERROR and OACK', () => {
    const data = Buffer.from('hello');
    expect(decodePacket(encodeData(7, data))).toEqual({ op: 'DATA', block: 7, data });
    expect(decodePacket(encodeData(3, Buffer.alloc(0)))).toEqual({ op: 'DATA', block: 3, data: Buffer.alloc(0) });
    expect(decodePacket(encodeAck(65535))).toEqual({ op: 'ACK', block: 65535 });
    const err = encodeError(ERROR_CODE.FILE_NOT_FOUND, 'File not found: x');
    expect(err.toString('latin1')).toBe('\x00\x05\x00\x01File not found: x\x00');
    expect(decodePacket(err)).toEqual({ op: 'ERROR', code: 1, message: 'File not found: x' });
    expect(decodePacket(encodeOack([['blksize', '1468'], ['windowsize', '16']]))).toEqual({ op: 'OACK', options: [['blksize', '1468'], ['windowsize', '16']] });
  });

  it('writes 16-bit block numbers that wrap from 65535 to 0', () => {
    const h = Buffer.alloc(4);
    writeDataHeader(h, 65535);
    expect([...h]).toEqual([0, OPCODE.DATA, 0xff, 0xff]);
    writeDataHeader(h, 65536);
    expect([...h]).toEqual([0, OPCODE.DATA, 0, 0]);
    writeDataHeader(h, 65537 + 65536);
    expect(h.readUInt16BE(2)).toBe(1);
    expect(encodeAck(65536).readUInt16BE(2)).toBe(0);
  });

  it('decodes an ERROR without its NUL terminator', () => {
    expect(decodePacket(Buffer.from('\x00\x05\x00\x08no', 'latin1'))).toEqual({ op: 'ERROR', code: 8, message: 'no' });
  });
});
