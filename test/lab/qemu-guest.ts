/**
 * A QEMU guest for the lab tests: started with the test's arguments (TCG: `/dev/kvm` can exist and
 * still run no Debian kernel, see docs/lab.md), its serial console collected, waited for with deadlines, driven
 * over QMP, and killed by its PID.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { findProgram } from '../../src/lab/build/build-tools.js';

export const QEMU = 'qemu-system-x86_64';

/** The QEMU binary; throws with the install command when it is missing. */
export function requireQemu(): string {
  const qemu = findProgram(QEMU);
  if (!qemu) throw new Error(`${QEMU} is not installed: apt-get install -y qemu-system-x86 (the lab tests boot real VMs)`);
  return qemu;
}

/** A running (or finished) guest. */
export interface Guest {
  readonly pid: number;
  /** Everything QEMU printed so far (the serial console with -nographic, and QEMU's own errors). */
  console(): string;
  /** Resolves with the first match of `pattern` in the console; rejects after `timeoutMs` or when QEMU exits first. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray>;
  /** Resolves with QEMU's exit code; rejects after `timeoutMs`. */
  waitExit(timeoutMs: number): Promise<number | null>;
  /** Sends one QMP command (needs `qmpSocket`); resolves with its `return`. */
  qmp(command: string, args?: Record<string, unknown>): Promise<unknown>;
  /** SIGKILL by PID if still running, and waits for the exit. */
  kill(): Promise<void>;
}

/** Starts `qemu-system-x86_64 -accel tcg …args` (plus a QMP socket when `qmpSocket` is given). */
export function startGuest(args: readonly string[], opts: { qmpSocket?: string } = {}): Guest {
  const qemu = requireQemu();
  const full = ['-accel', 'tcg', ...args, ...(opts.qmpSocket ? ['-qmp', `unix:${opts.qmpSocket},server=on,wait=off`] : [])];
  const child: ChildProcess = spawn(qemu, full, { stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    text += chunk.toString('utf8');
    for (const l of listeners) l();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => {
      exitCode = code;
      for (const l of listeners) l();
      resolve(code);
    });
    child.on('error', (err) => {
      text += `\n[spawn error: ${err.message}]\n`;
      exitCode = null;
      resolve(null);
    });
  });
  const tail = () => text.slice(-3000);

  return {
    pid: child.pid ?? -1,
    console: () => text,
    waitFor(pattern, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const m = pattern.exec(text);
          if (m) return done(() => resolve(m));
          if (exitCode !== undefined) done(() => reject(new Error(`QEMU exited (${exitCode}) before ${pattern} appeared; console:\n${tail()}`)));
        };
        const timer = setTimeout(() => done(() => reject(new Error(`${pattern} did not appear within ${timeoutMs} ms; console:\n${tail()}`))), timeoutMs);
        const done = (settle: () => void) => {
          clearTimeout(timer);
          listeners.delete(check);
          settle();
        };
        listeners.add(check);
        check();
      });
    },
    async waitExit(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`QEMU still runs after ${timeoutMs} ms; console:\n${tail()}`)), timeoutMs);
      });
      try {
        return await Promise.race([exited, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    qmp(command, args) {
      if (!opts.qmpSocket) return Promise.reject(new Error('no QMP socket'));
      return qmpCommand(opts.qmpSocket, command, args);
    },
    async kill() {
      if (exitCode === undefined && child.pid) {
        try {
          process.kill(child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      await exited;
    },
  };
}

/** One QMP session: greeting, capabilities, `command`; resolves with the command's `return`. */
function qmpCommand(socket: string, command: string, args?: Record<string, unknown>): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const conn = net.createConnection(socket);
    let buf = '';
    let step = 0;
    const timer = setTimeout(() => finish(new Error(`QMP ${command}: no answer within 10 s`)), 10_000);
    const finish = (err: Error | null, value?: unknown) => {
      clearTimeout(timer);
      conn.destroy();
      if (err) reject(err);
      else resolve(value);
    };
    conn.on('error', (err) => finish(err));
    conn.on('data', (chunk) => {
      buf += chunk.toString('utf8');
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const msg = JSON.parse(buf.slice(0, nl)) as { QMP?: unknown; return?: unknown; error?: { desc: string }; event?: string };
        buf = buf.slice(nl + 1);
        if (msg.event) continue;
        if (msg.error) return finish(new Error(`QMP ${command}: ${msg.error.desc}`));
        if (step === 0 && msg.QMP) {
          conn.write(`${JSON.stringify({ execute: 'qmp_capabilities' })}\n`);
          step = 1;
        } else if (step === 1 && 'return' in msg) {
          conn.write(`${JSON.stringify({ execute: command, ...(args ? { arguments: args } : {}) })}\n`);
          step = 2;
        } else if (step === 2 && 'return' in msg) {
          return finish(null, msg.return);
        }
      }
    });
  });
}
