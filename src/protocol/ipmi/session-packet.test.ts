import { describe, expect, it } from 'vitest';
import { AUTH_ALG, CIPHER_SUITES } from './cipher-suites.js';
import { IpmiDecodeError } from './errors.js';
import { aesDecrypt, aesEncrypt, deriveSessionKeys, hmac } from './session-keys.js';
import { datagramKind, encodeSessionPacket, openSessionPacket, parseSessionPacket, PAYLOAD_TYPE } from './session-packet.js';

const keysFor = (suite: 3 | 17, sikByte = 0x5a) => {
  const s = CIPHER_SUITES[suite];
  if (!s) throw new Error('no suite');
  return deriveSessionKeys(s, Buffer.alloc(s.auth === AUTH_ALG.RAKP_HMAC_SHA1 ? 20 : 32, sikByte));
};

describe('AES-CBC-128 confidentiality', () => {
  it('pads with 1, 2, 3 … and a pad length, never PKCS#7', () => {
    const k2 = Buffer.alloc(20, 7);
    const iv = Buffer.alloc(16, 9);
    for (const len of [0, 1, 14, 15, 16, 17, 31, 40]) {
      const payload = Buffer.alloc(len, 0xab);
      const enc = aesEncrypt(k2, payload, iv);
      expect(enc.subarray(0, 16)).toEqual(iv);
      expect((enc.length - 16) % 16).toBe(0);
      expect(enc.length - 16).toBe(Math.ceil((len + 1) / 16) * 16);
      expect(aesDecrypt(k2, enc)).toEqual(payload);
    }
  });

  it('puts the pad bytes and pad length into the plaintext', async () => {
    const { createDecipheriv } = await import('node:crypto');
    const k2 = Buffer.alloc(20, 7);
    const enc = aesEncrypt(k2, Buffer.from('0102030405', 'hex'), Buffer.alloc(16));
    const d = createDecipheriv('aes-128-cbc', k2.subarray(0, 16), enc.subarray(0, 16));
    d.setAutoPadding(false);
    const plain = Buffer.concat([d.update(enc.subarray(16)), d.final()]);
    expect(plain.toString('hex')).toBe('0102030405' + '0102030405060708090a' + '0a');
  });

  it('rejects ciphertext that is not whole blocks', () => {
    expect(() => aesDecrypt(Buffer.alloc(16), Buffer.alloc(40))).toThrow(IpmiDecodeError);
  });
});

describe('RMCP+ session packets', () => {
  it('sends pre-session payloads in clear with session id 0', () => {
    const wire = encodeSessionPacket({ payloadType: PAYLOAD_TYPE.OPEN_SESSION_REQUEST, sessionId: 0, sequence: 0, payload: Buffer.from('abcd', 'hex') });
    expect(wire.toString('hex')).toBe('0600ff07' + '06' + '10' + '00000000' + '00000000' + '0200' + 'abcd');
    expect(datagramKind(wire)).toBe('ipmi-v20');
    const raw = parseSessionPacket(wire);
    expect(raw).toMatchObject({ payloadType: 0x10, encrypted: false, authenticated: false, sessionId: 0, sequence: 0 });
    expect(openSessionPacket(raw).payload.toString('hex')).toBe('abcd');
  });

  for (const suite of [3, 17] as const) {
    it(`authenticates and encrypts with suite ${suite}: 4-byte aligned trailer, truncated HMAC, round trip`, () => {
      const keys = keysFor(suite);
      const authLength = suite === 3 ? 12 : 16;
      for (const len of [7, 8, 9, 10, 30]) {
        const payload = Buffer.alloc(len, 0x42);
        const wire = encodeSessionPacket({ payloadType: PAYLOAD_TYPE.IPMI, sessionId: 0x11223344, sequence: 5, payload }, keys);
        expect(wire[5]).toBe(0xc0);
        const raw = parseSessionPacket(wire);
        expect(raw.encrypted && raw.authenticated).toBe(true);
        const signedLength = wire.length - 4 - authLength;
        expect(signedLength % 4).toBe(0);
        expect(wire[4 + signedLength - 1]).toBe(0x07);
        const pad = wire[4 + signedLength - 2] as number;
        expect(pad).toBeLessThan(4);
        expect([...wire.subarray(4 + signedLength - 2 - pad, 4 + signedLength - 2)].every((b) => b === 0xff)).toBe(true);
        const expectedCode = hmac(suite === 3 ? 'sha1' : 'sha256', keys.k1, wire.subarray(4, 4 + signedLength)).subarray(0, authLength);
        expect(wire.subarray(wire.length - authLength)).toEqual(expectedCode);
        expect(openSessionPacket(raw, keys)).toEqual({ payloadType: 0, sessionId: 0x11223344, sequence: 5, payload });
      }
    });
  }

  it('rejects a tampered packet, a wrong key and a clear packet in an encrypted session', () => {
    const keys = keysFor(17);
    const wire = encodeSessionPacket({ payloadType: PAYLOAD_TYPE.IPMI, sessionId: 1, sequence: 2, payload: Buffer.alloc(8, 1) }, keys);
    const tampered = Buffer.from(wire);
    tampered[12] = (tampered[12] as number) ^ 1; // sequence number
    expect(() => openSessionPacket(parseSessionPacket(tampered), keys)).toThrow(/AuthCode/);
    expect(() => openSessionPacket(parseSessionPacket(wire), keysFor(17, 0x5b))).toThrow(/AuthCode/);
    const clear = encodeSessionPacket({ payloadType: PAYLOAD_TYPE.IPMI, sessionId: 1, sequence: 2, payload: Buffer.alloc(8, 1) });
    expect(() => openSessionPacket(parseSessionPacket(clear), keys)).toThrow(/not authenticated/);
    expect(() => openSessionPacket(parseSessionPacket(wire))).toThrow(/unexpected authenticated/);
  });
});
