import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AUTH_ALG, CIPHER_SUITES, cipherSuiteFor, CONFIDENTIALITY_ALG, INTEGRITY_ALG } from './cipher-suites.js';
import {
  decodeOpenSessionRequest,
  decodeOpenSessionResponse,
  decodeRakp1,
  decodeRakp2,
  decodeRakp3,
  decodeRakp4,
  encodeOpenSessionRequest,
  encodeOpenSessionResponse,
  encodeRakp1,
  encodeRakp2,
  encodeRakp3,
  encodeRakp4,
  PRIVILEGE,
  RAKP_STATUS,
  rakp2AuthCode,
  rakp3AuthCode,
  rakp4Icv,
  ROLE_NAME_ONLY_LOOKUP,
  sessionIntegrityKey,
  userKey,
  verifyRakp2,
  verifyRakp3,
  verifyRakp4,
  type RakpContext,
} from './rakp.js';
import { deriveSessionKeys } from './session-keys.js';

const ctxFor = (auth: number): RakpContext => ({
  auth,
  consoleSessionId: 0xa0a1a2a3,
  bmcSessionId: 0x01020304,
  consoleRandom: Buffer.alloc(16, 0x11),
  bmcRandom: Buffer.alloc(16, 0x22),
  bmcGuid: Buffer.alloc(16, 0x33),
  role: PRIVILEGE.ADMINISTRATOR | ROLE_NAME_ONLY_LOOKUP,
  username: 'admin',
});

describe('RAKP messages', () => {
  it('encodes Open Session request as 32 bytes of algorithm payloads and round-trips it', () => {
    const wire = encodeOpenSessionRequest({ tag: 7, maxPrivilege: 0, consoleSessionId: 0xa0a1a2a3, auth: 1, integrity: 1, confidentiality: 1 });
    expect(wire.toString('hex')).toBe('07000000a3a2a1a0' + '0000000801000000' + '0100000801000000' + '0200000801000000');
    expect(decodeOpenSessionRequest(wire)).toEqual({ tag: 7, maxPrivilege: 0, consoleSessionId: 0xa0a1a2a3, auth: 1, integrity: 1, confidentiality: 1 });
  });

  it('round-trips Open Session responses, short on error', () => {
    const ok = { tag: 7, status: 0, maxPrivilege: 4, consoleSessionId: 5, bmcSessionId: 9, auth: 3, integrity: 4, confidentiality: 1 };
    expect(encodeOpenSessionResponse(ok)).toHaveLength(36);
    expect(decodeOpenSessionResponse(encodeOpenSessionResponse(ok))).toEqual(ok);
    const bad = { tag: 7, status: RAKP_STATUS.NO_CIPHER_SUITE_MATCH, maxPrivilege: 0, consoleSessionId: 5 };
    expect(encodeOpenSessionResponse(bad)).toHaveLength(8);
    expect(decodeOpenSessionResponse(encodeOpenSessionResponse(bad))).toEqual(bad);
  });

  it('round-trips RAKP 1..4', () => {
    const r1 = { tag: 1, bmcSessionId: 42, consoleRandom: randomBytes(16), role: 0x14, username: 'admin' };
    const w1 = encodeRakp1(r1);
    expect(w1).toHaveLength(33);
    expect(w1[27]).toBe(5);
    expect(decodeRakp1(w1)).toEqual(r1);
    expect(() => encodeRakp1({ ...r1, username: 'x'.repeat(17) })).toThrow(/16/);
    const r2 = { tag: 1, status: 0, consoleSessionId: 7, bmcRandom: randomBytes(16), bmcGuid: randomBytes(16), authCode: randomBytes(20) };
    expect(decodeRakp2(encodeRakp2(r2))).toEqual(r2);
    expect(decodeRakp2(encodeRakp2({ tag: 1, status: RAKP_STATUS.UNAUTHORIZED_NAME, consoleSessionId: 7 }))).toEqual({ tag: 1, status: 0x0d, consoleSessionId: 7 });
    const r3 = { tag: 1, status: 0, bmcSessionId: 42, authCode: randomBytes(32) };
    expect(decodeRakp3(encodeRakp3(r3))).toEqual(r3);
    const r4 = { tag: 1, status: 0, consoleSessionId: 7, icv: randomBytes(16) };
    expect(decodeRakp4(encodeRakp4(r4))).toEqual(r4);
    expect(decodeRakp4(encodeRakp4({ tag: 1, status: 0x0f, consoleSessionId: 7 }))).toEqual({ tag: 1, status: 0x0f, consoleSessionId: 7 });
  });
});

describe('RAKP-HMAC computations', () => {
  it('computes the RAKP 2 code over SIDm|SIDc|Rm|Rc|GUIDc|ROLEm|ULENGTHm|UNAMEm with K_uid', () => {
    const ctx = ctxFor(AUTH_ALG.RAKP_HMAC_SHA1);
    const input = Buffer.concat([
      Buffer.from('a3a2a1a0', 'hex'),
      Buffer.from('04030201', 'hex'),
      ctx.consoleRandom,
      ctx.bmcRandom,
      ctx.bmcGuid,
      Buffer.from([0x14, 5]),
      Buffer.from('admin'),
    ]);
    const kuid = userKey('secret');
    expect(kuid).toHaveLength(20);
    expect(rakp2AuthCode(ctx, kuid)).toEqual(createHmac('sha1', Buffer.from('secret')).update(input).digest());
    expect(rakp2AuthCode(ctx, kuid)).toHaveLength(20);
    expect(rakp2AuthCode(ctxFor(AUTH_ALG.RAKP_HMAC_SHA256), kuid)).toHaveLength(32);
  });

  it('computes RAKP 3, SIK and the truncated RAKP 4 ICV as the spec lays out', () => {
    for (const [auth, hash, icvLength] of [
      [AUTH_ALG.RAKP_HMAC_SHA1, 'sha1', 12],
      [AUTH_ALG.RAKP_HMAC_SHA256, 'sha256', 16],
    ] as const) {
      const ctx = ctxFor(auth);
      const kuid = userKey('secret');
      const h = (key: Buffer, ...parts: Buffer[]) => createHmac(hash, key).update(Buffer.concat(parts)).digest();
      const roleName = Buffer.from([0x14, 5, ...Buffer.from('admin')]);
      expect(rakp3AuthCode(ctx, kuid)).toEqual(h(kuid, ctx.bmcRandom, Buffer.from('a3a2a1a0', 'hex'), roleName));
      const sik = sessionIntegrityKey(ctx, kuid);
      expect(sik).toEqual(h(kuid, ctx.consoleRandom, ctx.bmcRandom, roleName));
      const icv = rakp4Icv(ctx, sik);
      expect(icv).toHaveLength(icvLength);
      expect(icv).toEqual(h(sik, ctx.consoleRandom, Buffer.from('04030201', 'hex'), ctx.bmcGuid).subarray(0, icvLength));
      const keys = deriveSessionKeys({ auth, integrity: 0, confidentiality: 0 }, sik);
      // NOTE: the constants are 20 bytes for SHA-256 too (ipmitool lanplus_generate_k1/k2).
      expect(keys.k1).toEqual(h(sik, Buffer.alloc(20, 1)));
      expect(keys.k2).toEqual(h(sik, Buffer.alloc(20, 2)));
    }
  });

  it('lets the console and the BMC verify each other, and only with the same password', () => {
    const ctx = ctxFor(AUTH_ALG.RAKP_HMAC_SHA256);
    const bmcKey = userKey('secret');
    const rakp2 = rakp2AuthCode(ctx, bmcKey);
    expect(verifyRakp2(ctx, userKey('secret'), rakp2)).toBe(true);
    expect(verifyRakp2(ctx, userKey('wrong'), rakp2)).toBe(false);
    expect(verifyRakp2(ctx, userKey('secret'), undefined)).toBe(false);
    const rakp3 = rakp3AuthCode(ctx, userKey('secret'));
    expect(verifyRakp3(ctx, bmcKey, rakp3)).toBe(true);
    expect(verifyRakp3(ctx, bmcKey, rakp3AuthCode(ctx, userKey('wrong')))).toBe(false);
    expect(verifyRakp3(ctx, bmcKey, rakp3.subarray(0, 20))).toBe(false);
    const sik = sessionIntegrityKey(ctx, bmcKey);
    expect(verifyRakp4(ctx, sessionIntegrityKey(ctx, userKey('secret')), rakp4Icv(ctx, sik))).toBe(true);
    expect(verifyRakp4({ ...ctx, bmcSessionId: 5 }, sik, rakp4Icv(ctx, sik))).toBe(false);
  });

  it('maps algorithm triples to suites 3 and 17 only', () => {
    expect(cipherSuiteFor(AUTH_ALG.RAKP_HMAC_SHA1, INTEGRITY_ALG.HMAC_SHA1_96, CONFIDENTIALITY_ALG.AES_CBC_128)).toBe(CIPHER_SUITES[3]);
    expect(cipherSuiteFor(AUTH_ALG.RAKP_HMAC_SHA256, INTEGRITY_ALG.HMAC_SHA256_128, CONFIDENTIALITY_ALG.AES_CBC_128)).toBe(CIPHER_SUITES[17]);
    expect(cipherSuiteFor(AUTH_ALG.RAKP_HMAC_SHA1, INTEGRITY_ALG.NONE, CONFIDENTIALITY_ALG.NONE)).toBeUndefined();
  });
});
