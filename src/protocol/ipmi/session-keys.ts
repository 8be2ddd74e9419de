/**
 * RMCP+ session key material (IPMI v2.0 §13.31, §13.32): K1 for the integrity AuthCode, K2 (its first
 * 16 bytes) for AES-CBC-128, both derived from the session integrity key (SIK).
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { authHash, CONFIDENTIALITY_ALG, integrityHash, integrityLength, INTEGRITY_ALG, type HashName } from './cipher-suites.js';
import { IpmiDecodeError } from './errors.js';

/** What protects packets of an active session. */
export interface SessionKeys {
  /** Integrity algorithm number (INTEGRITY_ALG); NONE leaves packets unauthenticated. */
  integrity: number;
  /** Confidentiality algorithm number (CONFIDENTIALITY_ALG); NONE leaves payloads in clear. */
  confidentiality: number;
  sik: Buffer;
  k1: Buffer;
  k2: Buffer;
}

/** HMAC of `parts` (concatenated) under `key`. */
export function hmac(hash: HashName, key: Uint8Array, ...parts: Uint8Array[]): Buffer {
  const h = createHmac(hash, key);
  for (const p of parts) h.update(p);
  return h.digest();
}

/**
 * K_n = HMAC(SIK, const_n), const_n being the byte n repeated 20 times (§13.32).
 * NOTE: 20 bytes also for RAKP-HMAC-SHA256 (suite 17): the spec defines the constants as 20 bytes and
 * ipmitool (lanplus_generate_k1/k2) and BMCs use 20; a 32-byte constant gives keys no BMC accepts.
 */
export function deriveK(auth: number, sik: Uint8Array, n: number): Buffer {
  return hmac(authHash(auth), sik, Buffer.alloc(K_CONSTANT_LENGTH, n));
}

/** Length of the K1/K2 derivation constants. */
export const K_CONSTANT_LENGTH = 20;

/** K1 and K2 from the SIK, ready for {@link encodeSessionPacket}/{@link openSessionPacket}. */
export function deriveSessionKeys(algs: { auth: number; integrity: number; confidentiality: number }, sik: Buffer): SessionKeys {
  return { integrity: algs.integrity, confidentiality: algs.confidentiality, sik, k1: deriveK(algs.auth, sik, 0x01), k2: deriveK(algs.auth, sik, 0x02) };
}

/** The integrity AuthCode over `signed` (auth type byte through next header): HMAC(K1) truncated. */
export function integrityAuthCode(keys: SessionKeys, signed: Uint8Array): Buffer {
  if (keys.integrity === INTEGRITY_ALG.NONE) return Buffer.alloc(0);
  return hmac(integrityHash(keys.integrity), keys.k1, signed).subarray(0, integrityLength(keys.integrity));
}

/**
 * Encrypts a payload with AES-CBC-128 (§13.29): a random 16-byte IV, then the payload, pad bytes
 * 1, 2, 3, … to a 16-byte boundary and the pad length, all encrypted with the first 16 bytes of K2.
 * NOTE: no PKCS#7 padding; the pad length byte is part of the plaintext (hence setAutoPadding(false)).
 */
export function aesEncrypt(k2: Uint8Array, payload: Uint8Array, iv: Buffer = randomBytes(16)): Buffer {
  const padLength = (16 - ((payload.length + 1) % 16)) % 16;
  const plain = Buffer.alloc(payload.length + padLength + 1);
  Buffer.from(payload).copy(plain, 0);
  for (let i = 0; i < padLength; i++) plain[payload.length + i] = i + 1;
  plain[plain.length - 1] = padLength;
  const cipher = createCipheriv('aes-128-cbc', k2.subarray(0, 16), iv);
  cipher.setAutoPadding(false);
  return Buffer.concat([iv, cipher.update(plain), cipher.final()]);
}

/** Decrypts an AES-CBC-128 payload (IV prefix included) and strips the confidentiality trailer. */
export function aesDecrypt(k2: Uint8Array, data: Uint8Array): Buffer {
  if (data.length < 32 || data.length % 16 !== 0) throw new IpmiDecodeError(`AES payload of ${data.length} bytes is not IV + whole blocks`);
  const decipher = createDecipheriv('aes-128-cbc', k2.subarray(0, 16), data.subarray(0, 16));
  decipher.setAutoPadding(false);
  const plain = Buffer.concat([decipher.update(data.subarray(16)), decipher.final()]);
  const padLength = plain[plain.length - 1] as number;
  if (padLength > 15) throw new IpmiDecodeError(`AES confidentiality pad length ${padLength} is over 15 (wrong key?)`);
  return plain.subarray(0, plain.length - 1 - padLength);
}

/** Whether `keys` encrypt payloads. */
export function encrypts(keys: SessionKeys | undefined): boolean {
  return keys !== undefined && keys.confidentiality === CONFIDENTIALITY_ALG.AES_CBC_128;
}
