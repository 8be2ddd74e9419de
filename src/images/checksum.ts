/**
 * Image checksums as Ironic accepts them (`ironic/common/checksum_utils.py`): a bare hex digest whose
 * length tells the algorithm (128 → sha512, 64 → sha256, 32 → md5), `algo:hex`, an explicit algorithm
 * beside the value (`image_os_hash_algo`), or the URL of a checksum file (`SHA256SUMS`) whose line for
 * the image's file name holds the digest, in GNU (`hex  name`, `hex *name`) or BSD
 * (`SHA256 (name) = hex`) form. MD5 is refused unless the operator allows it.
 */
import { createReadStream } from 'node:fs';
import { MultiHash, HEX_LENGTH, type Checksum, type ChecksumAlgo } from './digest.js';
import { fetchBytes, type DownloadOptions } from './download.js';
import { ImageError, imageError } from './errors.js';
import { isHttpUrl } from './source.js';
import { excerpt } from '../shared/excerpt.js';
import { ChecksumFileError, findInChecksumFile as findInFile, imageNames } from '../shared/checksum-file.js';

export { imageNames };

export { HEX_LENGTH, type Checksum, type ChecksumAlgo } from './digest.js';

/** Largest checksum file read (a distribution's SHA256SUMS lists hundreds of files). */
export const MAX_CHECKSUM_FILE_BYTES = 4 * 1024 * 1024;

/** What the operator allows. */
export interface ChecksumPolicy {
  /** Accept MD5 (`images.allow_md5_checksum`, Ironic `[agent]allow_md5_checksum`). */
  allowMd5: boolean;
}

const ALGOS: readonly ChecksumAlgo[] = ['md5', 'sha256', 'sha512'];

function algoOf(name: string, checksum: string): ChecksumAlgo {
  const a = name.trim().toLowerCase().replace(/^sha-/, 'sha');
  if ((ALGOS as readonly string[]).includes(a)) return a as ChecksumAlgo;
  throw imageError('checksum_invalid', 'checksumAlgorithmUnsupported', { checksum, algo: name });
}

/** Characters of a checksum value a message shows (a sha512 digest and its name fit). */
const SHOWN = 140;

/**
 * Parses an inline checksum: `hex`, `algo:hex`, or `hex` with `algo` given separately. Throws
 * `checksum_invalid` (400) for a malformed value, an unknown algorithm, a length that does not fit the
 * algorithm, or MD5 when it is not allowed.
 */
export function parseChecksum(value: string, policy: ChecksumPolicy, algo?: string): Checksum {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!text) throw imageError('checksum_invalid', 'checksumEmpty');
  if (isHttpUrl(text)) throw imageError('checksum_invalid', 'checksumIsUrl', { checksum: text });
  let named = algo?.trim() || undefined;
  let hex = text;
  const colon = text.indexOf(':');
  if (colon >= 0) {
    named = text.slice(0, colon);
    hex = text.slice(colon + 1).trim();
  }
  if (!/^[0-9a-fA-F]+$/.test(hex)) {
    throw imageError('checksum_invalid', 'checksumNotHex', { checksum: excerpt(text, SHOWN) });
  }
  hex = hex.toLowerCase();
  let a: ChecksumAlgo;
  if (named) {
    a = algoOf(named, text);
    if (hex.length !== HEX_LENGTH[a]) {
      throw imageError('checksum_invalid', 'checksumLengthWrong', { algo: a, hex: excerpt(hex, SHOWN), digits: hex.length, expected: HEX_LENGTH[a] });
    }
  } else {
    const byLength = ALGOS.find((x) => HEX_LENGTH[x] === hex.length);
    if (!byLength) {
      throw imageError('checksum_invalid', 'checksumLengthUnknown', { hex: excerpt(hex, SHOWN), digits: hex.length });
    }
    a = byLength;
  }
  if (a === 'md5' && !policy.allowMd5) throw imageError('checksum_invalid', 'checksumMd5Refused', { hex });
  return { algo: a, hex };
}

/** The digest a checksum file lists for `names` (shared/checksum-file.ts), refused as bad input. */
export function findInChecksumFile(text: string, names: readonly string[], where: string): { hex: string; algo?: string } {
  try {
    return findInFile(text, names, where);
  } catch (err) {
    if (err instanceof ChecksumFileError) throw new ImageError('checksum_invalid', err.rendered, { cause: err });
    throw err;
  }
}

/** Options of {@link resolveChecksum}. */
export interface ResolveChecksumOptions extends ChecksumPolicy, Pick<DownloadOptions, 'signal' | 'timeoutMs' | 'headers'> {
  /** The image URL; its last path segment is the name looked up in a checksum file. */
  imageUrl: string;
  /** The algorithm given beside the value (`image_os_hash_algo`), if any. */
  algo?: string;
}

/**
 * Resolves what a user gave as the image checksum into a {@link Checksum}: inline values are parsed,
 * a checksum file URL is downloaded (at most {@link MAX_CHECKSUM_FILE_BYTES}) and searched for the
 * image's file name.
 */
export async function resolveChecksum(value: string, opts: ResolveChecksumOptions): Promise<Checksum> {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!isHttpUrl(text)) return parseChecksum(text, opts, opts.algo);
  const { body } = await fetchBytes(text, { maxBytes: MAX_CHECKSUM_FILE_BYTES, signal: opts.signal, timeoutMs: opts.timeoutMs, headers: opts.headers });
  const found = findInChecksumFile(body.toString('utf8'), imageNames(opts.imageUrl), text);
  try {
    return parseChecksum(found.hex, opts, found.algo ?? opts.algo);
  } catch (err) {
    if (err instanceof ImageError) throw imageError(err.reason, 'checksumFromFileInvalid', { reason: err.message, url: text }, { cause: err });
    throw err;
  }
}

/** The hex digest of a file (for images already on disk). */
export async function hashFile(file: string, algo: ChecksumAlgo, signal?: AbortSignal): Promise<string> {
  const h = new MultiHash([algo]);
  for await (const chunk of createReadStream(file, signal ? { signal } : {})) h.update(chunk as Buffer);
  return h.digest()[algo] as string;
}
