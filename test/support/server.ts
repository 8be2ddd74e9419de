/**
 * Starts the built `ingot serve` as a child process of the test process, on a free loopback port with
 * a temporary data directory, for tests that talk to Ingot over real sockets with real clients.
 *
 * Needs `npm run build` (the `ingot` bin runs `dist/`); `npm ci` builds through `prepare`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is test/support/server.ts, or dist/test/support/server.js). */
export const REPO_ROOT = findRepoRoot(path.dirname(fileURLToPath(import.meta.url)));

const BIN = path.join(REPO_ROOT, 'bin', 'ingot.js');
const ENTRY = path.join(REPO_ROOT, 'dist', 'ingot.mjs');
const LISTENING = /ingot: API listening on (http:\/\/\S+)/;

/** Options of {@link startServer}. */
export interface StartServerOptions {
  /** A `postgres://` URL; omitted means SQLite inside the data directory. */
  databaseUrl?: string;
  /** Extra environment for the child (merged over the test process's environment). */
  env?: Record<string, string>;
  /** Extra arguments after `serve …`. */
  args?: string[];
  /** Reuse this data directory instead of a fresh temporary one (it is then not removed). */
  dataDir?: string;
  /** How long to wait for the listening line, in milliseconds (default 20 000). */
  startTimeoutMs?: number;
}

/** A running `ingot serve` child. */
export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:40123` (no trailing slash). */
  readonly url: string;
  /** The data directory (kept across {@link RunningServer.restart}). */
  readonly dataDir: string;
  /** PID of the current child. */
  readonly pid: number;
  /** Everything the current child wrote to stdout and stderr so far. */
  output(): string;
  /** SIGTERM, then await exit (SIGKILL after `graceMs`, default 15 s); resolves with the exit code or signal. */
  stop(graceMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL, then await exit. */
  kill9(): Promise<void>;
  /** Start again on the same port and data directory (after stop or kill9; stops a running child first). */
  restart(): Promise<void>;
  /** Stop the child if running and remove the temporary data directory; safe to call twice. */
  dispose(): Promise<void>;
}

interface Child {
  proc: ChildProcess;
  out: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  done: boolean;
}

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Starts `node bin/ingot.js serve` and resolves once it prints its listening line. */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  if (!existsSync(ENTRY)) {
    throw new Error(`${ENTRY} is missing: run \`npm run build\` first (npm ci does it through prepare)`);
  }
  installExitHook();
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'ingot-test-')));
  const port = await freePort();
  const host = '127.0.0.1';
  let child: Child | undefined;
  let disposed = false;

  const launch = async (): Promise<void> => {
    const args = [BIN, 'serve', '--host', host, '--port', String(port), '--data-dir', dataDir];
    if (options.databaseUrl) args.push('--database-url', options.databaseUrl);
    args.push(...(options.args ?? []));
    child = spawnChild(args, { ...process.env, INGOT_API_INSPECTOR_PORT: '0', ...options.env });
    await waitListening(child, options.startTimeoutMs ?? 20_000);
  };

  const stopChild = async (signal: NodeJS.Signals, graceMs = 15_000) => {
    const c = child;
    if (!c) return { code: null, signal: null };
    if (!c.done) {
      c.proc.kill(signal);
      const timer = setTimeout(() => c.proc.kill('SIGKILL'), graceMs);
      try {
        return await c.exited;
      } finally {
        clearTimeout(timer);
      }
    }
    return c.exited;
  };

  try {
    await launch();
  } catch (err) {
    if (ownDir) await rm(dataDir, { recursive: true, force: true });
    throw err;
  }

  return {
    url: `http://${host}:${port}`,
    dataDir,
    get pid() {
      return child?.proc.pid ?? -1;
    },
    output: () => child?.out.join('') ?? '',
    stop: (graceMs?: number) => stopChild('SIGTERM', graceMs),
    kill9: async () => {
      await stopChild('SIGKILL');
    },
    restart: async () => {
      await stopChild('SIGTERM');
      await launch();
    },
    dispose: async () => {
      if (disposed) return;
      disposed = true;
      await stopChild('SIGTERM');
      if (ownDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A free TCP port on 127.0.0.1 (bound and released). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function spawnChild(args: string[], env: NodeJS.ProcessEnv): Child {
  const proc = spawn(process.execPath, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(proc);
  const out: string[] = [];
  const keep = (chunk: Buffer) => {
    out.push(chunk.toString('utf8'));
    if (out.length > 2000) out.splice(0, out.length - 1000);
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  const child: Child = {
    proc,
    out,
    done: false,
    exited: new Promise((resolve) => {
      proc.once('exit', (code, signal) => {
        child.done = true;
        live.delete(proc);
        resolve({ code, signal });
      });
    }),
  };
  return child;
}

async function waitListening(child: Child, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (LISTENING.test(child.out.join(''))) return;
    if (child.done) {
      const { code, signal } = await child.exited;
      throw new Error(`ingot serve exited (code ${code}, signal ${signal}) before listening:\n${tail(child)}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  child.proc.kill('SIGKILL');
  await child.exited;
  throw new Error(`ingot serve did not print its listening line within ${timeoutMs} ms:\n${tail(child)}`);
}

function tail(child: Child): string {
  return child.out.join('').slice(-4000) || '(no output)';
}

/** Children must never outlive the test process, even when a test forgets `dispose()`. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const proc of live) proc.kill('SIGKILL');
  });
}

function findRepoRoot(start: string): string {
  let dir = start;
  for (let i = 0; i < 6; i++) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'bin', 'ingot.js'))) return dir;
    dir = path.dirname(dir);
  }
  throw new Error(`cannot find the repository root above ${start}`);
}
