/**
 * RMCP+ algorithms and cipher suites (IPMI v2.0 §13.28, tables 13-17..13-19). Ingot supports
 * the two suites every current BMC offers: 3 (SHA-1) and 17 (SHA-256), both with AES-CBC-128.
 */

/** Authentication (RAKP) algorithm numbers, table 13-17. */
export const AUTH_ALG = { NONE: 0x00, RAKP_HMAC_SHA1: 0x01, RAKP_HMAC_MD5: 0x02, RAKP_HMAC_SHA256: 0x03 } as const;
/** Integrity algorithm numbers, table 13-18. */
export const INTEGRITY_ALG = { NONE: 0x00, HMAC_SHA1_96: 0x01, HMAC_MD5_128: 0x02, MD5_128: 0x03, HMAC_SHA256_128: 0x04 } as const;
/** Confidentiality algorithm numbers, table 13-19. */
export const CONFIDENTIALITY_ALG = { NONE: 0x00, AES_CBC_128: 0x01, XRC4_128: 0x02, XRC4_40: 0x03 } as const;

export type HashName = 'sha1' | 'sha256';

/** One cipher suite: its id and the three algorithm numbers it stands for. */
export interface CipherSuite {
  id: number;
  auth: number;
  integrity: number;
  confidentiality: number;
}

/** The cipher suites Ingot implements, by id. */
export const CIPHER_SUITES: Readonly<Record<number, CipherSuite>> = Object.freeze({
  3: { id: 3, auth: AUTH_ALG.RAKP_HMAC_SHA1, integrity: INTEGRITY_ALG.HMAC_SHA1_96, confidentiality: CONFIDENTIALITY_ALG.AES_CBC_128 },
  17: { id: 17, auth: AUTH_ALG.RAKP_HMAC_SHA256, integrity: INTEGRITY_ALG.HMAC_SHA256_128, confidentiality: CONFIDENTIALITY_ALG.AES_CBC_128 },
});

/** The suite with `id`, or undefined when Ingot does not implement it. */
export function cipherSuiteById(id: number): CipherSuite | undefined {
  return CIPHER_SUITES[id];
}

/** The implemented suite made of exactly these three algorithms, if any. */
export function cipherSuiteFor(auth: number, integrity: number, confidentiality: number): CipherSuite | undefined {
  return Object.values(CIPHER_SUITES).find((s) => s.auth === auth && s.integrity === integrity && s.confidentiality === confidentiality);
}

/** The hash behind a RAKP authentication algorithm (used for RAKP auth codes, SIK, K1, K2). */
export function authHash(auth: number): HashName {
  if (auth === AUTH_ALG.RAKP_HMAC_SHA1) return 'sha1';
  if (auth === AUTH_ALG.RAKP_HMAC_SHA256) return 'sha256';
  throw new Error(`unsupported RAKP authentication algorithm 0x${auth.toString(16)}`);
}

/** Digest length of `hash` in bytes (20 or 32). */
export function digestLength(hash: HashName): number {
  return hash === 'sha1' ? 20 : 32;
}

/**
 * Length of the RAKP 4 integrity check value: the HMAC truncated to 12 bytes for SHA-1 and 16 for
 * SHA-256 (ipmitool lanplus_rakp4_hmac_matches; BMCs agree).
 */
export function rakp4IcvLength(auth: number): number {
  return authHash(auth) === 'sha1' ? 12 : 16;
}

/** The hash behind an integrity algorithm. */
export function integrityHash(integrity: number): HashName {
  if (integrity === INTEGRITY_ALG.HMAC_SHA1_96) return 'sha1';
  if (integrity === INTEGRITY_ALG.HMAC_SHA256_128) return 'sha256';
  throw new Error(`unsupported integrity algorithm 0x${integrity.toString(16)}`);
}

/** AuthCode length in the session trailer: 12 (HMAC-SHA1-96), 16 (HMAC-SHA256-128), 0 (none). */
export function integrityLength(integrity: number): number {
  if (integrity === INTEGRITY_ALG.NONE) return 0;
  return integrityHash(integrity) === 'sha1' ? 12 : 16;
}
