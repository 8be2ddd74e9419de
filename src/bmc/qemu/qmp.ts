/**
 * A QMP (QEMU Machine Protocol) client over a unix socket. QMP is line-delimited JSON: the server sends a
 * greeting, the client leaves capabilities negotiation with `qmp_capabilities`, then sends commands
 * (`{"execute", "arguments", "id"}`) and receives `{"return"}` / `{"error": {class, desc}}` replies
 * carrying the same `id`, interleaved with asynchronous `{"event", "data", "timestamp"}` messages.
 * Spec: QEMU docs/interop/qmp-spec.
 */
import { connect as netConnect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { errorMessage, fail, IngotError } from '../../shared/errors.js';

/** One asynchronous QMP event (e.g. SHUTDOWN, RESET, STOP, RESUME, POWERDOWN). */
export interface QmpEvent {
  event: string;
  data: Record<string, unknown>;
  timestamp: { seconds: number; microseconds: number };
}

/** The server's greeting: QEMU's version and the capabilities it offers. */
export interface QmpGreeting {
  version: { qemu: { major: number; minor: number; micro: number }; package: string };
  capabilities: string[];
}

/** A QMP error reply, with QMP's error class (e.g. `GenericError`, `CommandNotFound`) and description. */
export class QmpError extends IngotError {
  constructor(
    readonly command: string,
    readonly qmpClass: string,
    readonly desc: string,
  ) {
    const { code, message } = errorMessage('qmpCommandFailed', { command, qmpClass, desc });
    super(code, message);
  }
}

/** Options for a wait: an AbortSignal, a timeout in milliseconds, or both. */
export interface QmpWaitOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** Connection options; by default the socket is retried until it exists (QEMU creates it while starting). */
export interface QmpConnectOptions extends QmpWaitOptions {
  /** Retry while the socket is missing or refuses (ENOENT/ECONNREFUSED); default true. */
  retry?: boolean;
}

const DEFAULT_TIMEOUT_MS = 10_000;

function waitSignal(options: QmpWaitOptions | undefined, fallbackMs: number): AbortSignal {
  const timeout = AbortSignal.timeout(options?.timeoutMs ?? fallbackMs);
  return options?.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
}

/** The error of a wait that `signal` ended: for a QMP step (a command or the greeting), or for connecting to `path`. */
function abortError(signal: AbortSignal, what: { step: string } | { path: string }): IngotError {
  const reason: unknown = signal.reason;
  const timedOut = reason instanceof Error && reason.name === 'TimeoutError';
  const options = { cause: reason };
  if ('path' in what) return timedOut ? fail('qmpConnectTimedOut', what, options) : fail('qmpConnectAborted', what, options);
  return timedOut ? fail('qmpTimedOut', what, options) : fail('qmpAborted', what, options);
}

interface Pending {
  command: string;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

/** A connected QMP session in command mode. Create it with {@link connectQmp}. */
export class QmpClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<(event: QmpEvent) => void>();
  private readonly closeListeners = new Set<() => void>();
  private buffer = '';
  private ended = false;
  private readonly endedPromise: Promise<void>;
  private greetingWaiter: { resolve: (g: QmpGreeting) => void; reject: (err: Error) => void } | null = null;
  /** The server's greeting, set once connected. */
  greeting: QmpGreeting | null = null;

  /** @internal Use {@link connectQmp}. */
  constructor(private readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => this.receive(chunk));
    this.endedPromise = new Promise((resolve) => {
      socket.once('close', () => {
        this.ended = true;
        const err = fail('qmpClosed');
        this.greetingWaiter?.reject(err);
        for (const p of this.pending.values()) p.reject(fail('qmpClosedBeforeReply', { command: p.command }));
        this.pending.clear();
        for (const l of this.closeListeners) l();
        resolve();
      });
    });
    socket.on('error', () => undefined); // 'close' follows and rejects what is pending
  }

  /** True once the connection is gone (QEMU exited or {@link close} was called). */
  get closed(): boolean {
    return this.ended;
  }

  /** @internal Waits for the greeting and negotiates capabilities. */
  async handshake(options?: QmpWaitOptions): Promise<QmpGreeting> {
    const signal = waitSignal(options, DEFAULT_TIMEOUT_MS);
    const greeting = await this.withAbort(
      new Promise<QmpGreeting>((resolve, reject) => {
        if (this.greeting) resolve(this.greeting);
        else if (this.ended) reject(fail('qmpClosedBeforeGreeting'));
        else this.greetingWaiter = { resolve, reject };
      }),
      signal,
      { step: 'greeting' },
    );
    await this.execute('qmp_capabilities', undefined, { signal });
    return greeting;
  }

  /**
   * Runs one command and resolves with its `return` value; a QMP error reply rejects with a
   * {@link QmpError}. The default timeout is 10 s.
   */
  async execute<T = unknown>(command: string, args?: Record<string, unknown>, options?: QmpWaitOptions): Promise<T> {
    if (this.ended) throw fail('qmpCommandAfterClose', { command });
    const signal = waitSignal(options, DEFAULT_TIMEOUT_MS);
    const id = this.nextId++;
    const reply = new Promise<unknown>((resolve, reject) => this.pending.set(id, { command, resolve, reject }));
    const message = args === undefined ? { execute: command, id } : { execute: command, arguments: args, id };
    this.socket.write(`${JSON.stringify(message)}\n`);
    try {
      return (await this.withAbort(reply, signal, { step: command })) as T;
    } finally {
      this.pending.delete(id);
    }
  }

  /** Calls `listener` for every asynchronous event; returns a function that removes it. */
  onEvent(listener: (event: QmpEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Calls `listener` once the connection is gone; returns a function that removes it. */
  onClose(listener: () => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /** Closes the connection (QEMU keeps running); idempotent. */
  async close(): Promise<void> {
    if (!this.ended) this.socket.end();
    const timer = setTimeout(() => this.socket.destroy(), 1000);
    await this.endedPromise;
    clearTimeout(timer);
  }

  private withAbort<T>(promise: Promise<T>, signal: AbortSignal, what: { step: string }): Promise<T> {
    if (signal.aborted) return Promise.reject(abortError(signal, what));
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(abortError(signal, what));
      signal.addEventListener('abort', onAbort, { once: true });
      promise.then(
        (v) => {
          signal.removeEventListener('abort', onAbort);
          resolve(v);
        },
        (err: Error) => {
          signal.removeEventListener('abort', onAbort);
          reject(err);
        },
      );
    });
  }

  private receive(chunk: string): void {
    this.buffer += chunk;
    let newline: number;
    while ((newline = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, newline).trim();
      this.buffer = this.buffer.slice(newline + 1);
      if (line) this.dispatch(line);
    }
  }

  private dispatch(line: string): void {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return; // not QMP; the spec has no other framing, so a partial line cannot occur here
    }
    if ('QMP' in message) {
      this.greeting = message.QMP as QmpGreeting;
      this.greetingWaiter?.resolve(this.greeting);
      this.greetingWaiter = null;
      return;
    }
    if (typeof message.event === 'string') {
      const event: QmpEvent = {
        event: message.event,
        data: (message.data as Record<string, unknown> | undefined) ?? {},
        timestamp: (message.timestamp as QmpEvent['timestamp'] | undefined) ?? { seconds: 0, microseconds: 0 },
      };
      for (const l of this.listeners) l(event);
      return;
    }
    const pending = typeof message.id === 'number' ? this.pending.get(message.id) : undefined;
    if (!pending) return; // a reply to a command given up on (aborted)
    if ('error' in message) {
      const error = message.error as { class?: string; desc?: string };
      pending.reject(new QmpError(pending.command, error.class ?? 'GenericError', error.desc ?? ''));
    } else {
      pending.resolve(message.return);
    }
  }
}

function connectOnce(path: string, signal: AbortSignal): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = netConnect(path);
    const onAbort = () => {
      socket.destroy();
      reject(abortError(signal, { path }));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => {
      signal.removeEventListener('abort', onAbort);
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', (err) => {
      signal.removeEventListener('abort', onAbort);
      reject(err);
    });
  });
}

/**
 * Connects to QEMU's QMP socket at `path`, reads the greeting and enters command mode. Retries while
 * the socket does not exist yet (default); gives up when `signal` aborts or after `timeoutMs` (10 s).
 */
export async function connectQmp(path: string, options?: QmpConnectOptions): Promise<QmpClient> {
  const signal = waitSignal(options, DEFAULT_TIMEOUT_MS);
  for (;;) {
    if (signal.aborted) throw abortError(signal, { path });
    let socket: Socket;
    try {
      socket = await connectOnce(path, signal);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (options?.retry !== false && (code === 'ENOENT' || code === 'ECONNREFUSED')) {
        await sleep(50, undefined, { signal }).catch(() => undefined);
        continue;
      }
      if (err instanceof IngotError) throw err;
      throw fail('qmpConnectFailed', { path, reason: (err as Error).message }, { cause: err });
    }
    const client = new QmpClient(socket);
    try {
      await client.handshake({ signal });
      return client;
    } catch (err) {
      await client.close();
      throw err;
    }
  }
}
