/** The `Range` header of a single byte range (RFC 9110 §14.1.2, §14.2). */

/** What a Range header asks of a representation of `size` bytes. */
export type RangeRequest =
  /** No usable range: serve the whole file (absent, not `bytes`, malformed, or several ranges). */
  | { kind: 'full' }
  /** Bytes `start`..`end`, both inclusive. */
  | { kind: 'partial'; start: number; end: number }
  /** A valid range that selects nothing of the file: 416. */
  | { kind: 'unsatisfiable' };

/**
 * Parses `header` against a file of `size` bytes. NOTE: RFC 9110 §14.2 lets a server ignore a Range it
 * does not support; several ranges (multipart/byteranges) are served as the whole file, which boot
 * loaders never ask for anyway.
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (header === undefined) return { kind: 'full' };
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m) return { kind: 'full' };
  const [, a = '', b = ''] = m;
  if (a === '' && b === '') return { kind: 'full' };
  if (a === '') {
    // Suffix range: the last n bytes.
    const n = Number(b);
    if (n === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(a);
  if (b !== '' && Number(b) < start) return { kind: 'full' };
  if (start >= size) return { kind: 'unsatisfiable' };
  const end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  return { kind: 'partial', start, end };
}
