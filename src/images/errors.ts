import { errorMessage, IngotError, type ErrorCode, type ErrorOptions, type FailArgs, type MessageId } from '../shared/errors.js';

/**
 * Why an image operation failed, for callers that act on the cause (retry a connection failure, not a
 * checksum mismatch) and for tests. The message always names the URL or file involved.
 */
export type ImageFailure =
  | 'invalid_source' // the URL or path is malformed or not allowed
  | 'not_found' // HTTP 404/410 or a missing file
  | 'http_status' // any other non-200 answer
  | 'connection' // refused, reset, DNS or TLS failure
  | 'timeout' // the server did not answer, or stalled mid-download
  | 'aborted' // the caller's signal aborted
  | 'too_large' // a size limit was exceeded
  | 'truncated' // fewer bytes arrived than announced
  | 'checksum_invalid' // the checksum value or checksum file cannot be used
  | 'checksum_mismatch' // the bytes do not match the expected checksum
  | 'format' // an image format that is not accepted (backing file, unknown container …)
  | 'convert' // qemu-img failed or is missing
  | 'no_space' // not enough disk space even after evicting unused images
  | 'configdrive'; // a config drive value that cannot be used

/**
 * The error every function of `images/` throws: an {@link IngotError} with a machine-readable reason. Its
 * code is the message's: InvalidParameterValue (400) for a problem with what the caller asked for,
 * DriverOperationError (500) for a failure while acting on a valid request (the server, the disk, the bytes).
 */
export class ImageError extends IngotError {
  readonly reason: ImageFailure;

  /** `rendered` is what `errorMessage(id, values)` gives; {@link imageError} builds one from the id. */
  constructor(reason: ImageFailure, rendered: { code: ErrorCode; message: string }, options?: ErrorOptions) {
    super(rendered.code, rendered.message, options);
    this.reason = reason;
  }
}

/** The ImageError of message `id` (of `messages/images.ts`) with `values`: `imageError('not_found', 'imageFileMissing', { path, url })`. */
export function imageError<M extends MessageId>(reason: ImageFailure, id: M, ...args: FailArgs<M>): ImageError {
  return new ImageError(reason, errorMessage(id, ...args), args[1]);
}

/** Whether `err` is an {@link ImageError}, optionally of one `reason`. */
export function isImageError(err: unknown, reason?: ImageFailure): err is ImageError {
  return err instanceof ImageError && (reason === undefined || err.reason === reason);
}

/** `n` bytes for a message: `1.5 GiB (1610612736 bytes)`. */
export function formatBytes(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  if (u === 0) return `${n} bytes`;
  const shown = v >= 100 ? v.toFixed(0) : v.toFixed(1).replace(/\.0$/, '');
  return `${shown} ${units[u]} (${n} bytes)`;
}
