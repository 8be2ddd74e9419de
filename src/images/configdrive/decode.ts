/**
 * The three forms Ironic accepts for `configdrive` (API `configdrive` field, `instance_info.configdrive`):
 * an `http(s)://` URL the image is fetched from, a gzip-compressed and base64-encoded image, or a JSON
 * object rendered into an ISO image here. The agent writes at most 64 MiB
 * (`MAX_CONFIG_DRIVE_SIZE_MB` in ironic-python-agent's partition_utils), so larger images are refused
 * before they are buffered or inflated.
 */
import { promisify } from 'node:util';
import { gunzip as gunzipCb, gzipSync } from 'node:zlib';
import type { DownloadOptions } from '../download.js';
import { fetchBytes } from '../download.js';
import { formatBytes, imageError, isImageError } from '../errors.js';
import { isHttpUrl } from '../source.js';
import { renderConfigDrive, type ConfigDriveContents, type RenderConfigDriveOptions } from './render.js';

const gunzip = promisify(gunzipCb);

/** Largest config drive image, after decompression (the agent's limit). */
export const MAX_CONFIG_DRIVE_BYTES = 64 * 1024 * 1024;

/** What a user may give as a config drive. */
export type ConfigDriveValue = string | ConfigDriveContents;

/** Options of {@link decodeConfigDrive}. */
export interface DecodeConfigDriveOptions extends RenderConfigDriveOptions, Pick<DownloadOptions, 'signal' | 'timeoutMs'> {
  /** Largest image accepted, in bytes (default {@link MAX_CONFIG_DRIVE_BYTES}). */
  maxBytes?: number;
}

/** A config drive ready to be written: the image bytes and which form it came in. */
export interface DecodedConfigDrive {
  image: Buffer;
  source: 'url' | 'encoded' | 'json';
}

const KEYS = ['meta_data', 'network_data', 'user_data', 'vendor_data'] as const;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
}

/**
 * Checks the shape of a config drive value as Ironic's API does: a non-empty string, or an object with
 * only `meta_data`, `network_data`, `vendor_data` (objects) and `user_data` (string, object or array).
 */
export function validateConfigDrive(value: unknown): asserts value is ConfigDriveValue {
  if (typeof value === 'string') {
    if (!value.trim()) throw imageError('configdrive', 'configDriveEmptyString');
    return;
  }
  if (!isPlainObject(value)) {
    throw imageError('configdrive', 'configDriveWrongType', { keys: KEYS.join(', '), type: Array.isArray(value) ? 'an array' : typeof value });
  }
  const extra = Object.keys(value).filter((k) => !(KEYS as readonly string[]).includes(k));
  if (extra.length) throw imageError('configdrive', 'configDriveUnknownKeys', { keys: extra.join(', '), allowed: KEYS.join(', ') });
  for (const k of ['meta_data', 'network_data', 'vendor_data'] as const) {
    if (value[k] !== undefined && value[k] !== null && !isPlainObject(value[k])) throw imageError('configdrive', 'configDriveFieldNotObject', { field: k });
  }
  const ud = value.user_data;
  if (ud !== undefined && ud !== null && typeof ud !== 'string' && typeof ud !== 'object') {
    throw imageError('configdrive', 'configDriveUserDataInvalid');
  }
}

/** gzip + base64, the form Ironic stores in `instance_info.configdrive` and hands to the agent. */
export function encodeConfigDrive(image: Uint8Array): string {
  return gzipSync(image).toString('base64');
}

/** Inflates gzip `data` of the config drive fetched from `url` (null: given as the value itself). */
async function inflate(data: Buffer, max: number, url: string | null): Promise<Buffer> {
  try {
    return await gunzip(data, { maxOutputLength: max });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) {
      const limit = { max: formatBytes(max) };
      throw url === null
        ? imageError('too_large', 'configDriveValueInflatesTooLarge', limit, { cause: err })
        : imageError('too_large', 'configDriveFromUrlInflatesTooLarge', { ...limit, url }, { cause: err });
    }
    const reason = (err as Error).message;
    throw url === null
      ? imageError('configdrive', 'configDriveValueBadGzip', { reason }, { cause: err })
      : imageError('configdrive', 'configDriveFromUrlNotGzip', { url, reason }, { cause: err });
  }
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function base64Bytes(text: string): Buffer {
  const compact = text.replace(/\s+/g, '');
  if (!BASE64.test(compact) || compact.length % 4 !== 0) throw imageError('configdrive', 'configDriveValueNotBase64');
  return Buffer.from(compact, 'base64');
}

function isGzip(b: Buffer): boolean {
  return b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;
}

/**
 * Turns any accepted config drive value into the image bytes: fetches a URL (whose body may be the
 * gzip+base64 text, gzip data or the raw image), decodes gzip+base64, or renders a JSON object.
 */
export async function decodeConfigDrive(value: unknown, opts: DecodeConfigDriveOptions = {}): Promise<DecodedConfigDrive> {
  validateConfigDrive(value);
  const max = opts.maxBytes ?? MAX_CONFIG_DRIVE_BYTES;
  if (typeof value !== 'string') {
    const image = renderConfigDrive(value, opts);
    if (image.length > max) throw imageError('too_large', 'configDriveRenderedTooLarge', { size: formatBytes(image.length), max: formatBytes(max) });
    return { image, source: 'json' };
  }
  const text = value.trim();
  if (isHttpUrl(text)) {
    let body: Buffer;
    try {
      ({ body } = await fetchBytes(text, { maxBytes: Math.max(max, Math.ceil((max * 4) / 3) + 65536), signal: opts.signal, timeoutMs: opts.timeoutMs }));
    } catch (err) {
      if (isImageError(err) && err.reason === 'too_large') throw imageError('too_large', 'configDriveUrlTooLarge', { url: text, max: formatBytes(max) }, { cause: err });
      throw err;
    }
    const asText = body.toString('latin1').replace(/\s+/g, '');
    let image: Buffer;
    if (asText.length > 0 && BASE64.test(asText) && asText.length % 4 === 0) {
      image = await inflate(Buffer.from(asText, 'base64'), max, text);
    } else if (isGzip(body)) {
      image = await inflate(body, max, text);
    } else {
      image = body;
    }
    if (image.length === 0) throw imageError('configdrive', 'configDriveFromUrlEmpty', { url: text });
    if (image.length > max) throw imageError('too_large', 'configDriveFromUrlTooLarge', { url: text, size: formatBytes(image.length), max: formatBytes(max) });
    return { image, source: 'url' };
  }
  const packed = base64Bytes(text);
  if (!isGzip(packed)) throw imageError('configdrive', 'configDriveValueNotGzip');
  const image = await inflate(packed, max, null);
  if (image.length === 0) throw imageError('configdrive', 'configDriveValueEmpty');
  return { image, source: 'encoded' };
}

/**
 * What Ironic keeps in `instance_info.configdrive` for a value (`conductor/utils.get_configdrive_image`):
 * URLs and gzip+base64 strings unchanged (the string checked), JSON objects rendered and encoded.
 */
export async function storedConfigDrive(value: unknown, opts: DecodeConfigDriveOptions = {}): Promise<string> {
  validateConfigDrive(value);
  if (typeof value === 'string') {
    const text = value.trim();
    if (!isHttpUrl(text)) await decodeConfigDrive(text, opts);
    return text;
  }
  const { image } = await decodeConfigDrive(value, opts);
  return encodeConfigDrive(image);
}
