/**
 * Sequential byte sources feeding a transfer's window: a positional reader with read-ahead, a stream
 * pulled with backpressure, and the netascii conversion over either. A transfer only moves forward
 * (its window keeps the blocks it may have to send again), so sequential reads suffice.
 */
import type { Readable } from 'node:stream';
import type { TftpReader } from './files.js';

/** Sequential reads; `read` fills `length` bytes unless the content ends first. */
export interface ByteSource {
  /** Copies the next bytes into `dst` at `offset`; resolves with the count, less than `length` only at the end. */
  read(dst: Buffer, offset: number, length: number): Promise<number>;
  /**
   * The same as `read`, done at once from what is already buffered; undefined (and nothing consumed)
   * when that needs I/O. Lets the lock-step path answer an ACK without a round through the event loop.
   */
  readBuffered?(dst: Buffer, offset: number, length: number): number | undefined;
  close(): Promise<void>;
}

/** Bytes read from the file at once when a window wants less (one thread-pool round trip per 64 KiB). */
const READ_AHEAD = 64 * 1024;

/** A positional reader read in order, through a read-ahead buffer. */
export function readerSource(reader: TftpReader, readAhead = READ_AHEAD): ByteSource {
  const buf = Buffer.allocUnsafe(readAhead);
  let start = 0;
  let end = 0;
  let position = 0;
  let eof = false;
  return {
    readBuffered(dst, offset, length) {
      const have = end - start;
      if (have < length && !eof) return undefined;
      const n = Math.min(have, length);
      buf.copy(dst, offset, start, start + n);
      start += n;
      return n;
    },
    async read(dst, offset, length) {
      let done = 0;
      while (done < length) {
        if (start < end) {
          const n = Math.min(end - start, length - done);
          buf.copy(dst, offset + done, start, start + n);
          start += n;
          done += n;
          continue;
        }
        if (eof) break;
        const want = length - done;
        // Large reads go straight into the caller's buffer.
        const direct = want >= buf.length;
        const n = direct ? await reader.read(dst, offset + done, want, position) : await reader.read(buf, 0, buf.length, position);
        if (n === 0) {
          eof = true;
          break;
        }
        position += n;
        if (direct) done += n;
        else {
          start = 0;
          end = n;
        }
      }
      return done;
    },
    async close() {
      await reader.close?.();
    },
  };
}

/** A stream pulled on demand: it reads ahead only up to its highWaterMark while the transfer waits for ACKs. */
export function streamSource(stream: Readable): ByteSource {
  let pending: Buffer | undefined;
  let ended = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  stream.on('readable', notify);
  stream.once('end', () => {
    ended = true;
    notify();
  });
  stream.once('error', (err) => {
    failure = err;
    notify();
  });
  stream.once('close', () => {
    ended = true;
    notify();
  });
  return {
    async read(dst, offset, length) {
      let done = 0;
      while (done < length) {
        if (failure) throw failure;
        if (!pending || pending.length === 0) {
          const chunk = stream.read() as Buffer | string | null;
          pending = chunk === null ? undefined : typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
        }
        if (pending && pending.length > 0) {
          const n = Math.min(pending.length, length - done);
          pending.copy(dst, offset + done, 0, n);
          pending = pending.subarray(n);
          done += n;
          continue;
        }
        if (ended || stream.readableEnded) break;
        await new Promise<void>((resolve) => (wake = resolve));
      }
      return done;
    },
    async close() {
      stream.destroy();
    },
  };
}

/**
 * netascii (RFC 1350 §1, RFC 764): LF becomes CR LF and a bare CR becomes CR NUL. Converting byte by
 * byte needs no state across chunks, since every CR and LF is rewritten on its own.
 */
export function toNetascii(raw: Buffer): Buffer {
  let extra = 0;
  for (let i = 0; i < raw.length; i++) if (raw[i] === 0x0a || raw[i] === 0x0d) extra++;
  if (extra === 0) return raw;
  const out = Buffer.allocUnsafe(raw.length + extra);
  let o = 0;
  for (let i = 0; i < raw.length; i++) {
    const b = raw[i] as number;
    if (b === 0x0a) {
      out[o++] = 0x0d;
      out[o++] = 0x0a;
    } else if (b === 0x0d) {
      out[o++] = 0x0d;
      out[o++] = 0x00;
    } else {
      out[o++] = b;
    }
  }
  return out;
}

/** The netascii form of another source. */
export function netasciiSource(inner: ByteSource, chunk = 16 * 1024): ByteSource {
  const raw = Buffer.allocUnsafe(chunk);
  let pending: Buffer = Buffer.alloc(0);
  let eof = false;
  return {
    async read(dst, offset, length) {
      let done = 0;
      while (done < length) {
        if (pending.length === 0) {
          if (eof) break;
          const n = await inner.read(raw, 0, raw.length);
          if (n < raw.length) eof = true;
          // A copy: `raw` is refilled on the next read while `pending` may still hold these bytes.
          pending = toNetascii(Buffer.from(raw.subarray(0, n)));
          continue;
        }
        const n = Math.min(pending.length, length - done);
        pending.copy(dst, offset + done, 0, n);
        pending = pending.subarray(n);
        done += n;
      }
      return done;
    },
    close: () => inner.close(),
  };
}
