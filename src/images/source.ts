/**
 * Image sources: which URLs Ingot downloads images from. `http://` and `https://` URLs are fetched;
 * `file://` URLs are read from the conductor's disk, but only inside the directories the operator
 * allows, never from system paths (Ironic `image_service.FileImageService` after CVE-2024-47211).
 */
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { badImageInput, imageFailure } from './errors.js';

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

function checkPath(href: string, p: string, allowed: readonly string[] | undefined): void {
  for (const bad of BLOCKED_FILE_PATHS) {
    if (inside(bad, p)) throw badImageInput('invalid_source', `Image source ${href} is refused: files under ${bad} may never be used as images.`);
  }
  if (!allowed || allowed.length === 0) {
    throw badImageInput('invalid_source', `Image source ${href} is refused: file:// images are disabled (images.file_url_allowed_paths is empty).`);
  }
  if (!allowed.some((dir) => inside(path.resolve(dir), p))) {
    throw badImageInput(
      'invalid_source',
      `Image source ${href} is refused: ${p} is outside images.file_url_allowed_paths (${allowed.join(', ')}).`,
    );
  }
}

/**
 * Parses and checks an image URL without touching the network or the disk. `allowedFilePaths` are the
 * directories `file://` URLs may point into (the operator's `images.file_url_allowed_paths`); without
 * them `file://` is refused.
 */
export function parseImageSource(href: string, allowedFilePaths?: readonly string[]): ImageSource {
  const text = typeof href === 'string' ? href.trim() : '';
  if (!text) throw badImageInput('invalid_source', 'An image source URL is required.');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw badImageInput('invalid_source', `Image source "${text}" is not a URL; use http://, https:// or file://.`);
  }
  const name = decodeSegment(url.pathname.split('/').pop() ?? '');
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    if (url.username || url.password) {
      throw badImageInput('invalid_source', `Image source ${redact(url)} carries credentials in the URL, which Ingot does not send; serve the image without them.`);
    }
    return { kind: 'http', href: url.href, url, name };
  }
  if (url.protocol === 'file:') {
    if (url.host && url.host !== 'localhost') {
      throw badImageInput('invalid_source', `Image source ${text} names host "${url.host}"; file:// URLs must be local (file:///path).`);
    }
    const p = path.resolve(fileURLToPath(url));
    checkPath(text, p, allowedFilePaths);
    return { kind: 'file', href: url.href, path: p, name };
  }
  throw badImageInput('invalid_source', `Image source ${text} uses ${url.protocol.replace(/:$/, '')}://, which Ingot cannot fetch; use http://, https:// or file://.`);
}

/**
 * The real path of a `file://` source, re-checked after following symbolic links so a link inside an
 * allowed directory cannot reach outside it. Throws `not_found` when the file does not exist.
 */
export async function resolveFileSource(src: Extract<ImageSource, { kind: 'file' }>, allowedFilePaths?: readonly string[]): Promise<string> {
  let real: string;
  try {
    real = await realpath(src.path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw imageFailure('not_found', `Image file ${src.path} (from ${src.href}) does not exist.`, err);
    throw imageFailure('invalid_source', `Cannot read image file ${src.path}: ${(err as Error).message}`, err);
  }
  if (real !== src.path) checkPath(src.href, real, allowedFilePaths);
  const st = await stat(real);
  if (!st.isFile()) throw badImageInput('invalid_source', `Image source ${src.href} is not a regular file.`);
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
