/**
 * Writes a stream of bytes onto a disk in large blocks while the next ones arrive: receiving (and
 * hashing) overlaps writing, which runs on libuv's thread pool. Bytes are gathered into a small pool of
 * buffers (`buffers` × `blockBytes`, 4 × 4 MiB by default, allocated together at the first write); full
 * buffers queue up and are written one at a time, in order. When every buffer is full or being written,
 * {@link WritePipeline.take} takes nothing more until {@link WritePipeline.ready}, which stops reading
 * the source and so bounds memory (TCP back-pressure when the source is a download).
 *
 * NOTE: one write at a time, not several: concurrent writes to one file all take its inode lock, and
 * the waiting threads spin (`rwsem_spin_on_owner`, ~4 % of the samples under `perf`); writing 512 MiB
 * to an ext4 disk file cost ~1.43 s of CPU with four concurrent writes and ~1.2 s one at a time, for
 * the same wall time.
 *
 * The buffers are page-aligned ({@link alignedBuffers}) and written with {@link DiskTarget.writeDirect}, so
 * a disk that takes direct I/O gets the bytes without the page cache; the background syncs
 * (`flushEveryBytes`) count only what went through the cache.
 *
 * The first write failure stops the pipeline: the next `take`, `push` or `finish` throws it, no queued
 * write starts any more, and {@link WritePipeline.drain} waits for the write under way so that nothing
 * lands on the disk after the caller has started cleaning up.
 */
import { alignedBuffers, type DiskTarget } from './disk-target.js';

/** Granularity of zero-block skipping. */
export const SPARSE_BLOCK = 64 * 1024;
const ZERO_BLOCK = Buffer.alloc(SPARSE_BLOCK);

/** Options of {@link WritePipeline}. */
export interface WritePipelineOptions {
  disk: DiskTarget;
  /** Bytes per write (default 4 MiB); a multiple of {@link SPARSE_BLOCK}. */
  blockBytes?: number;
  /** Buffers of `blockBytes` (default 4): one filling, the others queued or being written. */
  buffers?: number;
  /**
   * Leave all-zero {@link SPARSE_BLOCK}-sized blocks unwritten, for a target that already reads back
   * zeros there (a blanked disk file, which stays sparse).
   */
  skipZeroBlocks?: boolean;
  /** Start a background `sync` of the disk after every this many bytes written (0: never). */
  flushEveryBytes?: number;
  /** Awaited with the first block before anything is written; throwing stops the pipeline unwritten. */
  beforeFirstWrite?: (head: Buffer) => Promise<void>;
}

/** Sequential bytes in; large positioned writes out, in the background. */
export class WritePipeline {
  readonly #disk: DiskTarget;
  readonly #blockBytes: number;
  readonly #maxBuffers: number;
  readonly #skipZeroBlocks: boolean;
  #beforeFirstWrite: ((head: Buffer) => Promise<void>) | undefined;
  readonly #free: Buffer[] = [];
  /** The buffers exist (they are made together, at the first write). */
  #pooled = false;
  readonly #waiting: (() => void)[] = [];
  readonly #inFlight = new Set<Promise<void>>();
  #current: Buffer | null = null;
  #fill = 0;
  /** Disk offset of the first byte of the buffer being filled. */
  #offset = 0;
  #failure: { error: unknown } | null = null;
  /** Settles when the last write started so far is done (and, first of all, the first-write hook has run). */
  #gate: Promise<void> = Promise.resolve();
  #written = 0;
  #skipped = 0;
  readonly #flushEvery: number;
  #sinceFlush = 0;
  #flushing = false;

  constructor(opts: WritePipelineOptions) {
    this.#disk = opts.disk;
    this.#blockBytes = opts.blockBytes ?? 4 * 1024 * 1024;
    this.#maxBuffers = Math.max(2, opts.buffers ?? 4);
    this.#skipZeroBlocks = opts.skipZeroBlocks ?? false;
    this.#beforeFirstWrite = opts.beforeFirstWrite;
    this.#flushEvery = opts.flushEveryBytes ?? 0;
    if (this.#blockBytes <= 0 || this.#blockBytes % SPARSE_BLOCK !== 0) throw new Error(`blockBytes ${this.#blockBytes} is not a positive multiple of ${SPARSE_BLOCK}`);
  }

  /** Bytes accepted so far (written or still to be written). */
  get position(): number {
    return this.#offset + this.#fill;
  }

  /** The end of the furthest write started: every byte the disk may have received lies before it. */
  get written(): number {
    return this.#written;
  }

  /** Bytes left unwritten because they were zero (with `skipZeroBlocks`). */
  get skippedBytes(): number {
    return this.#skipped;
  }

  /** The write failure (or `beforeFirstWrite` failure) that stopped the pipeline, if any. */
  get failure(): { error: unknown } | null {
    return this.#failure;
  }

  /**
   * Copies as much of `chunk` as the free buffers hold and returns how many bytes that was; fewer than
   * all means every buffer is busy: call again after {@link WritePipeline.ready}. Throws the failure
   * that stopped the pipeline.
   */
  take(chunk: Uint8Array): number {
    this.#throwIfFailed();
    let at = 0;
    while (at < chunk.length) {
      const buf = this.#current ?? (this.#current = this.#takeFree());
      if (!buf) break;
      const n = Math.min(chunk.length - at, buf.length - this.#fill);
      buf.set(chunk.subarray(at, at + n), this.#fill);
      this.#fill += n;
      at += n;
      if (this.#fill === buf.length) this.#dispatch();
    }
    return at;
  }

  /** Resolves when {@link WritePipeline.take} accepts bytes again (at once when it does now). */
  ready(): Promise<void> {
    if (this.#current || this.#free.length > 0 || !this.#pooled || this.#failure) return Promise.resolve();
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  /** Appends all of `chunk`, waiting for free buffers as needed. */
  async push(chunk: Uint8Array): Promise<void> {
    for (let at = this.take(chunk); at < chunk.length; at += this.take(chunk.subarray(at))) await this.ready();
  }

  /** Writes what is buffered and waits for every write; throws the first failure. */
  async finish(): Promise<void> {
    this.#throwIfFailed();
    this.#dispatch();
    await this.drain();
    this.#throwIfFailed();
  }

  /** Waits for the writes in flight, whatever their outcome. */
  async drain(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  #throwIfFailed(): void {
    if (this.#failure) throw this.#failure.error;
  }

  #fail(err: unknown): void {
    this.#failure ??= { error: err };
    for (const wake of this.#waiting.splice(0)) wake();
  }

  #takeFree(): Buffer | null {
    if (!this.#pooled) {
      // All at once, from one page-aligned block: any image past one buffer uses them all.
      this.#free.push(...alignedBuffers(this.#maxBuffers, this.#blockBytes));
      this.#pooled = true;
    }
    return this.#free.pop() ?? null;
  }

  #release(buf: Buffer): void {
    this.#free.push(buf);
    for (const wake of this.#waiting.splice(0)) wake();
  }

  /** Queues the buffer being filled for writing, after the writes before it (and the first-write hook). */
  #dispatch(): void {
    const buf = this.#current;
    const length = this.#fill;
    const at = this.#offset;
    if (!buf) return;
    this.#current = null;
    this.#fill = 0;
    this.#offset += length;
    if (length === 0) {
      this.#release(buf);
      return;
    }
    const data = buf.subarray(0, length);
    if (this.#beforeFirstWrite) {
      const hook = this.#beforeFirstWrite;
      this.#beforeFirstWrite = undefined;
      this.#gate = hook(data).catch((err: unknown) => this.#fail(err));
    }
    this.#written = Math.max(this.#written, at + length);
    const job: Promise<void> = this.#gate
      .then(() => (this.#failure ? 0 : this.#write(at, data)))
      .then((cached) => this.#maybeFlush(cached))
      .catch((err: unknown) => this.#fail(err))
      .finally(() => {
        this.#inFlight.delete(job);
        this.#release(buf);
      });
    this.#inFlight.add(job);
    this.#gate = job;
  }

  /** Counts `cached` bytes written through the page cache; starts a background sync every `flushEveryBytes` of them. */
  #maybeFlush(cached: number): void {
    if (this.#flushEvery <= 0) return;
    this.#sinceFlush += cached;
    if (this.#flushing || this.#sinceFlush < this.#flushEvery) return;
    this.#flushing = true;
    this.#sinceFlush = 0;
    const flush: Promise<void> = this.#disk
      .sync()
      .catch((err: unknown) => this.#fail(err))
      .finally(() => {
        this.#flushing = false;
        this.#inFlight.delete(flush);
      });
    this.#inFlight.add(flush);
  }

  /**
   * Writes `data` at `pos`, leaving out all-zero blocks when asked to; resolves with the bytes that went
   * through the page cache. Runs start at multiples of {@link SPARSE_BLOCK} in an aligned buffer, so they
   * stay fit for direct I/O.
   */
  async #write(pos: number, data: Buffer): Promise<number> {
    if (!this.#skipZeroBlocks) return this.#disk.writeDirect(pos, data);
    let cached = 0;
    let runStart = -1;
    for (let at = 0; at < data.length; at += SPARSE_BLOCK) {
      const piece = data.subarray(at, at + SPARSE_BLOCK);
      if (piece.equals(ZERO_BLOCK.subarray(0, piece.length))) {
        this.#skipped += piece.length;
        if (runStart >= 0) cached += await this.#disk.writeDirect(pos + runStart, data.subarray(runStart, at));
        runStart = -1;
      } else if (runStart < 0) runStart = at;
    }
    if (runStart >= 0) cached += await this.#disk.writeDirect(pos + runStart, data.subarray(runStart));
    return cached;
  }
}
