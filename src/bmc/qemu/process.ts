/**
 * One QEMU process, started as a direct child of this process (never daemonized, so it stays parented
 * here and its PID cannot be reused while we hold it), with its QMP session. stdout/stderr are appended
 * to a log file; a QEMU that fails to start is reported with the last lines of that log.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { fail } from '../../shared/errors.js';
import { connectQmp, type QmpClient } from './qmp.js';

/** What to start and where its files go. */
export interface QemuProcessSpec {
  binary: string;
  args: string[];
  /** stdout and stderr of QEMU are appended here. */
  logPath: string;
  /** The QMP unix socket the args make QEMU listen on. */
  qmpPath: string;
  /** Deadline for QEMU to come up with its QMP socket; default 15 s. */
  startTimeoutMs?: number;
  signal?: AbortSignal;
}

/** How a process ended. */
export interface QemuExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** QEMU children still running; killed (by their PIDs) if this process exits without closing them. */
const live = new Set<ChildProcess>();
let exitHookInstalled = false;

function track(child: ChildProcess): void {
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // NOTE: PID 1 on these hosts does not reap orphans (lab-facts.md): a QEMU outliving us would run on
  // as an orphan holding its disk lock, so a process exit without close() still ends our children.
  process.once('exit', () => {
    for (const c of live) c.kill('SIGKILL');
  });
}

/** The last `lines` lines of the log at `path` ('' if unreadable). */
export function logTail(path: string, lines = 12): string {
  try {
    const text = readFileSync(path, 'utf8');
    return text.trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** A running QEMU and its QMP session. */
export class QemuProcess {
  private constructor(
    private readonly child: ChildProcess,
    /** The QMP session; closed when QEMU exits. */
    readonly qmp: QmpClient,
    /** Resolves when the process has exited (and has been reaped). */
    readonly exited: Promise<QemuExit>,
    private readonly logPath: string,
  ) {}

  /** QEMU's PID (its own, not a shell's). */
  get pid(): number {
    return this.child.pid as number;
  }

  /** True until the process has exited. */
  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The last lines of QEMU's log. */
  logTail(lines?: number): string {
    return logTail(this.logPath, lines);
  }

  /**
   * Starts QEMU and connects to its QMP socket. Fails with the log's last lines when QEMU exits before
   * QMP answers, and with an install hint when the binary is missing.
   */
  static async start(spec: QemuProcessSpec): Promise<QemuProcess> {
    const log = openSync(spec.logPath, 'a');
    let child: ChildProcess;
    try {
      writeSync(log, `--- ${new Date().toISOString()} ${spec.binary} ${spec.args.join(' ')}\n`);
      child = spawn(spec.binary, spec.args, { stdio: ['ignore', log, log], detached: false });
    } finally {
      closeSync(log);
    }
    const exited = new Promise<QemuExit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    const spawned = await new Promise<Error | null>((resolve) => {
      child.once('spawn', () => resolve(null));
      child.once('error', (err) => resolve(err));
    });
    if (spawned) {
      const options = { cause: spawned };
      if ((spawned as NodeJS.ErrnoException).code === 'ENOENT') throw fail('qemuBinaryNotFound', { binary: spec.binary }, options);
      throw fail('qemuBinaryNotStarted', { binary: spec.binary, reason: spawned.message }, options);
    }
    track(child);
    const gone = new AbortController();
    void exited.then(() => gone.abort(new Error('QEMU exited')));
    const signals = [gone.signal, AbortSignal.timeout(spec.startTimeoutMs ?? 15_000)];
    if (spec.signal) signals.push(spec.signal);
    try {
      const qmp = await connectQmp(spec.qmpPath, { signal: AbortSignal.any(signals), timeoutMs: spec.startTimeoutMs ?? 15_000 });
      return new QemuProcess(child, qmp, exited, spec.logPath);
    } catch (err) {
      const exitedEarly = gone.signal.aborted;
      if (!exitedEarly) {
        child.kill('SIGKILL');
        await exited;
      }
      const { code, signal } = await exited;
      const log = { log: spec.logPath, tail: logTail(spec.logPath) };
      if (exitedEarly) throw fail('qemuExitedWhileStarting', { code: code ?? '-', signal: signal ?? '-', ...log }, { cause: err });
      throw fail('qemuNoQmpWhileStarting', { reason: (err as Error).message, ...log }, { cause: err });
    }
  }

  /**
   * Ends QEMU: QMP `quit` (a hard power off, no guest shutdown), then SIGKILL to this PID if it has not
   * exited after `graceMs` (default 5 s). Idempotent.
   */
  async stop(graceMs = 5000): Promise<QemuExit> {
    if (this.running && !this.qmp.closed) {
      // NOTE: `quit` may lose its reply when QEMU closes the socket first; the exit is what counts.
      await this.qmp.execute('quit', undefined, { timeoutMs: graceMs }).catch(() => undefined);
    }
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
    const first = await Promise.race([this.exited, deadline]);
    clearTimeout(timer);
    // ChildProcess.kill signals only this child's PID, and only while it has not been reaped.
    if (first === 'late' && this.running) this.child.kill('SIGKILL');
    const exit = await this.exited;
    await this.qmp.close();
    return exit;
  }
}
