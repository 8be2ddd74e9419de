import { createHash, type Hash } from 'node:crypto';
import { imageError } from './errors.js';

/** The checksum algorithms Ingot verifies images with (MD5 only when the operator allows it). */
export type ChecksumAlgo = 'md5' | 'sha256' | 'sha512';

/** Length of each algorithm's hex digest; a bare checksum's algorithm is told by its length. */
export const HEX_LENGTH: Readonly<Record<ChecksumAlgo, number>> = { md5: 32, sha256: 64, sha512: 128 };

/** An expected checksum: the algorithm and the lower-case hex digest. */
export interface Checksum {
  algo: ChecksumAlgo;
  hex: string;
}

/** Several running hashes over the same bytes (a download computes what the caller asked for). */
export class MultiHash {
  private readonly hashes: [ChecksumAlgo, Hash][];

  constructor(algos: readonly ChecksumAlgo[]) {
    this.hashes = [...new Set(algos)].map((a) => [a, createHash(a)]);
  }

  update(chunk: Uint8Array): void {
    for (const [, h] of this.hashes) h.update(chunk);
  }

  /** The hex digests; call once, after the last chunk. */
  digest(): Partial<Record<ChecksumAlgo, string>> {
    const out: Partial<Record<ChecksumAlgo, string>> = {};
    for (const [a, h] of this.hashes) out[a] = h.digest('hex');
    return out;
  }
}

/**
 * Throws a `checksum_mismatch` error naming both values unless `actualHex` matches `expected`.
 * `what` names the image (its URL) for the message.
 */
export function verifyDigest(expected: Checksum, actualHex: string | undefined, what: string): void {
  if (actualHex === undefined) {
    throw imageError('checksum_mismatch', 'checksumNotComputed', { algo: expected.algo, url: what });
  }
  if (actualHex.toLowerCase() !== expected.hex) {
    throw imageError('checksum_mismatch', 'checksumMismatch', { url: what, algo: expected.algo, expected: expected.hex, actual: actualHex.toLowerCase() });
  }
}
