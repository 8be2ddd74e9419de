/**
 * Image sources: which URLs Ingot downloads images from. `http://` and `https://` URLs are fetched;
 * `file://` URLs are read from the conductor's disk, but only inside the directories the operator
 * allows, never from system paths (Ironic `image_service.FileImageService` after CVE-2024-47211) nor
 * from Ingot's own data directory (its database holds every BMC password), even when an allowed
 * directory contains it.
 */
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { imageError } from './errors.js';

/**
 * Paths a `file://` URL may never point into, whatever the allow list says (Ironic
 * `BLOCKED_FILE_URL_PATHS`): devices, kernel interfaces, boot files and configuration with secrets.
 */
export const BLOCKED_FILE_PATHS: readonly string[] = ['/dev', '/sys', '/proc', '/boot', '/etc', '/run'];

/** A parsed image source. `name` is the last segment of the URL path (what checksum files list). */
export type ImageSource =
  | { kind: 'http'; href: string; url: URL; name: string }
  | { kind: 'file'; href: string; path: string; name: string };

/** Whether `value` is an `http://` or `https://` URL (Ironic `utils.is_http_url`). */
export function isHttpUrl(value: string): boolean {
  return /^https?:\/\//i.test(value.trim());
}

function inside(dir: string, p: string): boolean {
  const d = dir.length > 1 ? dir.replace(/\/+$/, '') : dir;
  return p === d || p.startsWith(d === '/' ? '/' : `${d}/`);
}

/** Where `file://` images may come from: the allowed directories, and more refused ones (the data directory). */
export interface FilePathPolicy {
  /** The operator's `images.file_url_allowed_paths`; empty or absent: `file://` is refused. */
  allowed?: readonly string[];
  /** Refused besides {@link BLOCKED_FILE_PATHS}, even inside an allowed directory. */
  blocked?: readonly string[];
}

function checkPath(href: string, p: string, policy: FilePathPolicy, blockedReal: readonly string[] = []): void {
  for (const bad of [...BLOCKED_FILE_PATHS, ...(policy.blocked ?? []).map((d) => path.resolve(d)), ...blockedReal]) {
    if (inside(bad, p)) throw imageError('invalid_source', 'imageFileBlocked', { url: href, dir: bad });
  }
  const allowed = policy.allowed;
  if (!allowed || allowed.length === 0) {
    throw imageError('invalid_source', 'imageFileUrlsDisabled', { url: href });
  }
  if (!allowed.some((dir) => inside(path.resolve(dir), p))) {
    throw imageError('invalid_source', 'imageFileOutsideAllowed', { url: href, path: p, allowed: allowed.join(', ') });
  }
}

/**
 * Parses and checks an image URL without touching the network or the disk. `files` says where `file://`
 * URLs may point (see {@link FilePathPolicy}); without allowed directories `file://` is refused.
 */
export function parseImageSource(href: string, files: FilePathPolicy = {}): ImageSource {
  const text = typeof href === 'string' ? href.trim() : '';
  if (!text) throw imageError('invalid_source', 'imageSourceRequired');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw imageError('invalid_source', 'imageUrlInvalid', { url: text });
  }
  const name = decodeSegment(url.pathname.split('/').pop() ?? '');
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    if (url.username || url.password) {
      throw imageError('invalid_source', 'imageUrlHasCredentials', { url: redact(url) });
    }
    return { kind: 'http', href: url.href, url, name };
  }
  if (url.protocol === 'file:') {
    if (url.host && url.host !== 'localhost') {
      throw imageError('invalid_source', 'imageFileUrlRemote', { url: text, host: url.host });
    }
    const p = path.resolve(fileURLToPath(url));
    checkPath(text, p, files);
    return { kind: 'file', href: url.href, path: p, name };
  }
  throw imageError('invalid_source', 'imageUrlSchemeUnsupported', { url: text, scheme: url.protocol.replace(/:$/, '') });
}

/**
 * The real path of a `file://` source, re-checked after following symbolic links (of the file and of the
 * refused directories) so a link inside an allowed directory cannot reach outside it, nor into the data
 * directory. Throws `not_found` when the file does not exist.
 */
export async function resolveFileSource(src: Extract<ImageSource, { kind: 'file' }>, files: FilePathPolicy = {}): Promise<string> {
  let real: string;
  try {
    real = await realpath(src.path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw imageError('not_found', 'imageFileMissing', { path: src.path, url: src.href }, { cause: err });
    throw imageError('invalid_source', 'imageFileUnreadable', { path: src.path, reason: (err as Error).message }, { cause: err });
  }
  const blockedReal = await Promise.all((files.blocked ?? []).map((d) => realpath(d).catch(() => path.resolve(d))));
  checkPath(src.href, real, files, blockedReal);
  const st = await stat(real);
  if (!st.isFile()) throw imageError('invalid_source', 'imageFileNotRegular', { url: src.href });
  return real;
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function redact(url: URL): string {
  const u = new URL(url.href);
  u.username = '';
  u.password = '';
  return u.href;
}
