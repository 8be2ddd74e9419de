/**
 * Reading checksum files (`SHA256SUMS` and the like) as Ironic's `checksum_utils.py` does: the conductor's
 * image pipeline and the ramdisk agent both look an image's digest up in one, so they read it the same way.
 * Formats: GNU (`hex  name`, `hex *name`), BSD (`SHA256 (name) = hex`), name first (`name  hex`), and a file
 * holding one bare digest.
 */
import { errorMessage, type ErrorCode } from './errors.js';
import { excerpt } from './excerpt.js';

/** Hex digest lengths of the algorithms a checksum file may hold (md5, sha256, sha512). */
const DIGEST_LENGTHS = [32, 64, 128];

/**
 * The file cannot give the digest; the message (of `messages/shared.ts`) says why. A plain Error, which
 * the conductor's image pipeline raises again as an ImageError with the same code and message.
 */
export class ChecksumFileError extends Error {
  override name = 'ChecksumFileError';

  /** `rendered` is what `errorMessage(id, values)` gives. */
  constructor(readonly rendered: { code: ErrorCode; message: string }) {
    super(rendered.message);
  }
}

/** The names a checksum file may list an image under: the URL's last path segment, raw and decoded. */
export function imageNames(imageUrl: string): string[] {
  let raw: string;
  try {
    raw = new URL(imageUrl).pathname.split('/').pop() ?? '';
  } catch {
    raw = imageUrl.split(/[?#]/)[0]?.split('/').pop() ?? '';
  }
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // keep the raw name
  }
  return decoded === raw ? [raw] : [raw, decoded];
}

/**
 * The digest `text` lists for one of `names` (first match), with the BSD algorithm tag when there is one;
 * `where` names the file in messages. @throws ChecksumFileError.
 */
export function findInChecksumFile(text: string, names: readonly string[], where: string): { hex: string; algo?: string } {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  if (lines.length === 0) throw new ChecksumFileError(errorMessage('checksumFileEmpty', { file: where }));
  // NOTE: a file holding only one digest (no file name) is used as it is (checksum_utils.py).
  if (lines.length === 1 && !/\s/.test(lines[0] as string)) {
    const only = lines[0] as string;
    if (/^[0-9a-fA-F]+$/.test(only) && DIGEST_LENGTHS.includes(only.length)) return { hex: only };
    throw new ChecksumFileError(errorMessage('checksumFileNoChecksum', { file: where, text: excerpt(only, 40) }));
  }
  for (const line of lines) {
    if (line.startsWith('#')) continue;
    const bsd = /^([A-Za-z0-9-]+)\s*\((.*)\)\s*=\s*([0-9a-fA-F]+)$/.exec(line);
    if (bsd) {
      if (names.includes(bsd[2] as string)) return { hex: bsd[3] as string, algo: bsd[1] as string };
      continue;
    }
    const gnu = /^([0-9a-fA-F]+)\s+\*?(.+)$/.exec(line);
    if (gnu && names.includes((gnu[2] as string).trim())) return { hex: gnu[1] as string };
    // NOTE: some files put the name first and the digest last (`name  hex`); Ironic accepts that too.
    const last = /^(.+?)\s+([0-9a-fA-F]+)$/.exec(line);
    if (last && names.includes((last[1] as string).trim().replace(/^\*/, ''))) return { hex: last[2] as string };
  }
  throw new ChecksumFileError(errorMessage('checksumFileNoLine', { file: where, name: String(names[0]) }));
}
