/**
 * A dnsmasq child process that Ingot starts, watches and stops: `dnsmasq --no-daemon` with a
 * configuration Ingot writes, optionally inside a network namespace (`ip netns exec`, which execs
 * dnsmasq so the child's PID is dnsmasq's). Its log lines go to Ingot's logger.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, readFile, unlink, writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { fail } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import { writeFileAtomic } from './atomic-write.js';
import { processCommandLine } from './dnsmasq-pid.js';

/** How to run the managed dnsmasq. */
export interface ManagedDnsmasqOptions {
  /** The binary (Debian: /usr/sbin/dnsmasq from dnsmasq-base). */
  dnsmasqPath: string;
  /** Run inside this network namespace; empty or absent: Ingot's own. */
  netns?: string;
  /** Where the configuration is written (an absolute path). */
  configFile: string;
  /** The configuration text (see `renderManagedConfig`). */
  config: string;
  /** File recording the PID, so the next start can stop a dnsmasq an earlier Ingot left behind. */
  pidFile: string;
  logger?: Logger;
  /** Every output line of dnsmasq (tests wait on "read <file>" lines). */
  onLine?: (line: string) => void;
  /** Longest wait for dnsmasq to bind its sockets; default 10 s. */
  startTimeoutMs?: number;
}

const READY = /DHCP, sockets bound exclusively to interface/;
const KEPT_LINES = 50;
const STOP_GRACE_MS = 5000;

/** The managed dnsmasq process. */
export class ManagedDnsmasq {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private readonly lines: string[] = [];
  private closing = false;
  private readonly onProcessExit = () => {
    // Synchronous last resort when Ingot exits without close(): a dnsmasq outliving Ingot would keep
    // answering with stale options and hold the interface.
    if (this.child?.pid && !this.exit) this.child.kill('SIGKILL');
  };

  constructor(private readonly opts: ManagedDnsmasqOptions) {}

  /** dnsmasq's PID while it runs. */
  get pid(): number | undefined {
    return this.exit ? undefined : this.child?.pid;
  }

  /** The last lines dnsmasq printed. */
  output(): string[] {
    return [...this.lines];
  }

  /**
   * Writes the configuration, stops a dnsmasq an earlier run left behind, starts dnsmasq and resolves
   * once it has bound its DHCP socket. A missing binary or a configuration dnsmasq refuses is a
   * ConfigInvalid error carrying dnsmasq's own message.
   */
  async start(signal?: AbortSignal): Promise<void> {
    if (this.child) throw fail('dnsmasqStartedTwice');
    signal?.throwIfAborted();
    const { dnsmasqPath, netns, configFile } = this.opts;
    try {
      await access(dnsmasqPath, constants.X_OK);
    } catch {
      throw fail('dnsmasqNotInstalled', { path: dnsmasqPath });
    }
    await this.stopLeftover();
    await writeFileAtomic(configFile, this.opts.config);
    // --no-daemon rather than --keep-in-foreground: dnsmasq keeps its user (it reads files Ingot wrote
    // whatever their owner) and writes no PID file of its own; Ingot knows the PID as the parent.
    const args = ['--no-daemon', `--conf-file=${configFile}`];
    const [cmd, argv] = netns ? ['ip', ['netns', 'exec', netns, dnsmasqPath, ...args]] : [dnsmasqPath, args];
    const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('close', (code, sig) => {
      this.exit = { code, signal: sig };
      process.off('exit', this.onProcessExit);
      if (!this.closing) this.opts.logger?.error({ code, signal: sig, output: this.lines.slice(-5) }, 'dhcp: the managed dnsmasq exited');
      resolve();
    }));
    process.on('exit', this.onProcessExit);
    let ready!: () => void;
    const isReady = new Promise<void>((resolve) => (ready = resolve));
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        this.lines.push(line);
        if (this.lines.length > KEPT_LINES) this.lines.shift();
        this.opts.logger?.debug({ dnsmasq: line }, 'dhcp: dnsmasq');
        this.opts.onLine?.(line);
        if (READY.test(line)) ready();
      });
    }
    const spawnError = new Promise<never>((_, reject) => child.once('error', (err) => reject(
      fail(netns ? 'dnsmasqSpawnFailedInNetns' : 'dnsmasqSpawnFailed', { command: cmd, reason: err.message }),
    )));
    spawnError.catch(() => undefined);
    const died = this.exited.then(() => {
      throw fail('dnsmasqExitedAtStart', { exit: this.describeExit(), output: this.lines.slice(-5).join(' | ') || 'no output' });
    });
    died.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const stopped = new Promise<never>((_, reject) => {
      const timeoutMs = this.opts.startTimeoutMs ?? 10_000;
      timer = setTimeout(() => reject(fail('dnsmasqBindTimeout', { timeoutMs, output: this.lines.slice(-5).join(' | ') })), timeoutMs);
      onAbort = () => reject(signal!.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      await Promise.race([isReady, spawnError, died, stopped]);
      if (child.pid) await writeFile(this.opts.pidFile, `${child.pid}\n`);
    } catch (err) {
      await this.close();
      throw err;
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Throws DriverOperationError when dnsmasq is not running (never started, exited, or being closed). */
  check(): void {
    if (!this.child || this.exit || this.closing) {
      throw fail('dnsmasqNotRunning', { exit: this.exit ? this.describeExit() : 'not started', output: this.lines.slice(-3).join(' | ') || 'no output' });
    }
  }

  /** SIGTERM, SIGKILL after 5 s; resolves once dnsmasq is gone. Safe to call twice. */
  async close(): Promise<void> {
    this.closing = true;
    const child = this.child;
    if (child && !this.exit) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await this.exited;
      clearTimeout(timer);
    }
    process.off('exit', this.onProcessExit);
    if (child) await unlink(this.opts.pidFile).catch(() => undefined);
  }

  private describeExit(): string {
    return this.exit?.signal ? `signal ${this.exit.signal}` : `code ${this.exit?.code ?? '?'}`;
  }

  /** Stops a dnsmasq an earlier Ingot started with this configuration file (and nothing else). */
  private async stopLeftover(): Promise<void> {
    const pid = Number((await readFile(this.opts.pidFile, 'utf8').catch(() => '')).trim());
    if (!Number.isInteger(pid) || pid <= 0) return;
    // NOTE: PIDs wrap around: only a process that is dnsmasq with our configuration file is ours.
    const cmdline = await processCommandLine(pid);
    if (!cmdline?.includes(`--conf-file=${this.opts.configFile}`)) return;
    this.opts.logger?.warn({ pid }, 'dhcp: stopping the dnsmasq an earlier run left behind');
    process.kill(pid, 'SIGTERM');
    for (let waited = 0; waited < STOP_GRACE_MS; waited += 50) {
      if (!(await processCommandLine(pid))) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    process.kill(pid, 'SIGKILL');
  }
}
