/**
 * Which checksum an image must match (IPA `standby.py` `ImageDownload.__init__`, `_fetch_checksum`):
 * `os_hash_algo` + `os_hash_value` when given (and the algorithm is known), else the legacy `checksum`
 * field, which is MD5. Either value may be the URL of a checksum file (`sha256sum` output, or a file
 * holding the bare digest), in which case the line naming the image's file is used.
 */
import { getHashes } from 'node:crypto';
import type { ImageInfo } from '../../protocol/agent/commands.js';
import { findInChecksumFile, imageNames } from '../../shared/checksum-file.js';
import { invalidCommandParams } from '../api/errors.js';

/** The algorithm and the expected hex digest (lower case). */
export interface ExpectedChecksum {
  algo: string;
  value: string;
}

const isUrl = (v: string) => /^https?:\/\//i.test(v);

/** Checks `image_info` the way IPA's `_validate_image_info` does; throws InvalidCommandParamsError. */
export function validateImageInfo(info: unknown): asserts info is ImageInfo {
  const i = (info ?? {}) as Record<string, unknown>;
  for (const field of ['id', 'urls']) if (!(field in i)) throw invalidCommandParams('imageFieldMissing', { field });
  if (!Array.isArray(i.urls) || i.urls.length === 0 || !i.urls.every((u) => typeof u === 'string')) {
    throw invalidCommandParams('imageUrlsInvalid');
  }
  const hasMd5 = i.checksum !== undefined && i.checksum !== null;
  if (hasMd5 && (typeof i.checksum !== 'string' || i.checksum === '')) throw invalidCommandParams('imageFieldNotString', { field: 'checksum' });
  const hasOs = Boolean(i.os_hash_algo || i.os_hash_value);
  if (hasOs) {
    if (typeof i.os_hash_algo !== 'string' || !i.os_hash_algo) throw invalidCommandParams('imageFieldNotString', { field: 'os_hash_algo' });
    if (typeof i.os_hash_value !== 'string' || !i.os_hash_value) throw invalidCommandParams('imageFieldNotString', { field: 'os_hash_value' });
  }
  if (!hasMd5 && !hasOs) {
    throw invalidCommandParams('agentImageChecksumMissing');
  }
}

/**
 * The checksum to verify, before any checksum file is fetched. MD5 (the legacy field, or
 * `os_hash_algo: md5`) only when `allowMd5` (the conductor's `agent_md5_checksum_enable`).
 */
export function expectedChecksum(info: ImageInfo, allowMd5: boolean): ExpectedChecksum {
  const algo = info.os_hash_algo?.toLowerCase();
  let chosen: ExpectedChecksum;
  if (algo && getHashes().includes(algo) && info.os_hash_value) chosen = { algo, value: info.os_hash_value };
  else if (info.checksum) chosen = { algo: 'md5', value: info.checksum };
  else {
    throw invalidCommandParams('imageChecksumUnverifiable', { image: info.id, algo: String(info.os_hash_algo) });
  }
  if (chosen.algo === 'md5' && !allowMd5) {
    throw invalidCommandParams('imageMd5Refused', { image: info.id });
  }
  return { algo: chosen.algo, value: isUrl(chosen.value) ? chosen.value : chosen.value.trim().toLowerCase() };
}

/** True when the expected value is a checksum file to fetch. */
export const checksumIsUrl = (c: ExpectedChecksum) => isUrl(c.value);

/** The digest listed for `imageUrl`'s file name in the text of the checksum file at `checksumUrl` (shared/checksum-file.ts). */
export function pickChecksum(text: string, imageUrl: string, checksumUrl: string): string {
  return findInChecksumFile(text, imageNames(imageUrl), checksumUrl).hex.toLowerCase();
}
