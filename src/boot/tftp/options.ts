/**
 * Option negotiation of a read request (RFC 2347): blksize (RFC 2348), timeout and tsize (RFC 2349) and
 * windowsize (RFC 7440). Only options understood and valid are acknowledged; the rest are ignored as
 * RFC 2347 §3 asks, and a request with none of them left is served the RFC 1350 way (no OACK).
 */

/** The block size of RFC 1350, used when blksize is not negotiated. */
export const DEFAULT_BLKSIZE = 512;
/** RFC 2348 §2: valid blksize values. */
export const BLKSIZE_MIN = 8;
export const BLKSIZE_MAX = 65464;
/** RFC 7440 §3: valid windowsize values. */
export const WINDOWSIZE_MIN = 1;
export const WINDOWSIZE_MAX = 65535;
/** RFC 2349 §2: valid timeout values, in seconds. */
export const TIMEOUT_MIN_S = 1;
export const TIMEOUT_MAX_S = 255;

/** What the server allows. */
export interface NegotiationLimits {
  /** Largest block size granted (a larger request is answered with this). */
  maxBlksize: number;
  /** Largest window granted. */
  maxWindowsize: number;
  /** Largest window in bytes (blksize × windowsize), the memory one transfer holds; default {@link MAX_WINDOW_BYTES}. */
  maxWindowBytes?: number;
}

/** Default bound of one transfer's window buffer: 8 MiB (128 blocks of 65464 bytes). */
export const MAX_WINDOW_BYTES = 8 * 1024 * 1024;

/** The outcome of negotiation for one read request. */
export interface Negotiated {
  blksize: number;
  windowsize: number;
  /** Retransmission timeout the client asked for, in ms; undefined when it did not (the server's own applies). */
  timeoutMs: number | undefined;
  /** The OACK's options in the client's order, with the values granted; empty means no OACK. */
  oack: [string, string][];
}

/** A decimal integer without sign, exponent or spaces, or NaN. */
function integer(value: string): number {
  return /^[0-9]{1,10}$/.test(value) ? Number(value) : NaN;
}

/**
 * Negotiates the options of a read request. `size` answers tsize; pass undefined when the size on the
 * wire is not known up front (netascii), and tsize is then left out of the OACK (as for an empty file).
 */
export function negotiate(options: readonly [string, string][], limits: NegotiationLimits, size: number | undefined): Negotiated {
  const out: Negotiated = { blksize: DEFAULT_BLKSIZE, windowsize: 1, timeoutMs: undefined, oack: [] };
  const seen = new Set<string>();
  for (const [rawName, value] of options) {
    const name = rawName.toLowerCase();
    // A repeated option counts once: the first one, like the request's own fields.
    if (seen.has(name)) continue;
    seen.add(name);
    const n = integer(value);
    switch (name) {
      case 'blksize':
        if (n >= BLKSIZE_MIN && n <= BLKSIZE_MAX) {
          // RFC 2348 §3: the server may answer a smaller size than requested, never a larger one.
          out.blksize = Math.min(n, limits.maxBlksize);
          out.oack.push([name, String(out.blksize)]);
        }
        break;
      case 'windowsize':
        if (n >= WINDOWSIZE_MIN && n <= WINDOWSIZE_MAX) {
          out.windowsize = Math.min(n, limits.maxWindowsize);
          out.oack.push([name, String(out.windowsize)]);
        }
        break;
      case 'timeout':
        // RFC 2349 §2: the server may not change the value; it accepts it as it is or ignores it.
        if (n >= TIMEOUT_MIN_S && n <= TIMEOUT_MAX_S) {
          out.timeoutMs = n * 1000;
          out.oack.push([name, String(n)]);
        }
        break;
      case 'tsize':
        // RFC 2349 §4: in a read request the client sends 0 and the server answers the size.
        // NOTE: curl (7.88, lib/tftp.c) fails an OACK whose tsize is 0 with error 71 (it does so
        // against tftpd-hpa 5.2 too), so an empty file is served without tsize: RFC 2347 lets the
        // server leave out any option, and the client then simply does not learn the size in advance.
        if (size !== undefined && size > 0 && Number.isFinite(n)) out.oack.push([name, String(size)]);
        break;
      default:
        break;
    }
  }
  // The window is held in memory: bound blksize × windowsize (blksize may come after windowsize).
  const byBytes = Math.max(1, Math.floor((limits.maxWindowBytes ?? MAX_WINDOW_BYTES) / out.blksize));
  if (out.windowsize > byBytes) {
    out.windowsize = byBytes;
    const entry = out.oack.find(([name]) => name === 'windowsize');
    if (entry) entry[1] = String(byBytes);
  }
  return out;
}
