/**
 * Starts the built `ingot serve` as a child process of the test process, on loopback with a temporary
 * data directory (and, with `dialect: 'postgres'`, a fresh PostgreSQL database dropped afterwards), for
 * tests that talk to Ingot over real sockets with real clients.
 *
 * The child binds port 0 and the URL comes from the line it prints (`ingot: API listening on …`), so no
 * port is chosen here and later taken by someone else, also not at a restart after a kill -9 while other
 * test files run. Needs a current `npm run build` (the `ingot` bin runs `dist/`); a missing or stale
 * dist/ fails the test at once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireFreshBuild } from './build.js';
import { freshPostgresDatabase, type Dialect, type PostgresDatabase } from './stores.js';

/** The repository root (this file is test/support/server.ts, or dist/test/support/server.js). */
export const REPO_ROOT = findRepoRoot(path.dirname(fileURLToPath(import.meta.url)));

const BIN = path.join(REPO_ROOT, 'bin', 'ingot.js');
const LISTENING = /ingot: API listening on (http:\/\/\S+)/;
const INSPECTOR_LISTENING = /ingot: ironic-inspector compatible API listening on (http:\/\/\S+)/;
const HTTP_BOOT_LISTENING = /ingot: HTTP boot server listening on \S+ port (\d+)/;
const TFTP_LISTENING = /ingot: TFTP server listening on \S+ port (\d+)/;
/** How often a start whose fixed port someone else took meanwhile is tried again on another one. */
const PORT_ATTEMPTS = 5;

/** Options of {@link startServer}. */
export interface StartServerOptions {
  /** The database: SQLite inside the data directory (default) or a fresh PostgreSQL database. */
  dialect?: Dialect;
  /** Extra environment for the child (merged over the test process's environment). */
  env?: Record<string, string>;
  /** Extra arguments after `serve …`. */
  args?: string[];
  /** Reuse this data directory instead of a fresh temporary one (it is then not removed). */
  dataDir?: string;
  /**
   * Run the ironic-inspector compatible listener too. Its port cannot be 0 (that switches it off), so
   * a free one is chosen, and the start is tried again on another when someone took it meanwhile.
   */
  inspector?: boolean;
  /** How long to wait for the listening line, in milliseconds (default 20 000). */
  startTimeoutMs?: number;
}

/** A running `ingot serve` child. */
export interface RunningServer {
  /** Base URL of the current child, e.g. `http://127.0.0.1:40123` (no trailing slash; a restart changes the port). */
  readonly url: string;
  /** Base URL of the ironic-inspector compatible listener (with `inspector: true`). */
  readonly inspectorUrl: string | undefined;
  /** The port of the HTTP boot server (`INGOT_BOOT_HTTP_ENABLED=true`; give `INGOT_BOOT_HTTP_PORT=0`). */
  readonly httpBootPort: number | undefined;
  /** The port of the TFTP server (`INGOT_TFTP_ENABLED=true`; give `INGOT_TFTP_PORT=0`). */
  readonly tftpPort: number | undefined;
  /** The data directory (kept across {@link RunningServer.restart}). */
  readonly dataDir: string;
  /** The PostgreSQL URL the server uses (`dialect: 'postgres'`), kept across restarts. */
  readonly databaseUrl: string | undefined;
  /** PID of the current child. */
  readonly pid: number;
  /** Everything the current child wrote to stdout and stderr so far. */
  output(): string;
  /** SIGTERM, then await exit (SIGKILL after `graceMs`, default 15 s); resolves with the exit code or signal. */
  stop(graceMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL, then await exit. */
  kill9(): Promise<void>;
  /** Start again on the same data directory and database (after stop or kill9; stops a running child first). */
  restart(): Promise<void>;
  /** Stop the child if running, remove the temporary data directory and drop the database; safe to call twice. */
  dispose(): Promise<void>;
}

interface Child {
  proc: ChildProcess;
  out: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  done: boolean;
}

/** What the child printed once it listened. */
interface Listening {
  url: string;
  inspectorUrl?: string;
  httpBootPort?: number;
  tftpPort?: number;
}

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Starts `node bin/ingot.js serve` and resolves once it prints its listening line. */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  requireFreshBuild(REPO_ROOT);
  installExitHook();
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'ingot-test-')));
  let database: PostgresDatabase | undefined;
  let child: Child | undefined;
  let listening: Listening | undefined;
  let disposed = false;

  const launchOnce = async (inspectorPort: number): Promise<Child> => {
    const args = [BIN, 'serve', '--host', '127.0.0.1', '--port', '0', '--data-dir', dataDir];
    if (database) args.push('--database-url', database.url);
    args.push(...(options.args ?? []));
    const c = spawnChild(args, { ...process.env, ...options.env, INGOT_API_INSPECTOR_PORT: String(inspectorPort) });
    child = c;
    listening = await waitListening(c, options.startTimeoutMs ?? 20_000, inspectorPort !== 0);
    return c;
  };
  const launch = async (): Promise<void> => {
    for (let attempt = 1; ; attempt++) {
      const inspectorPort = options.inspector ? await freePort() : 0;
      try {
        await launchOnce(inspectorPort);
        return;
      } catch (err) {
        // Only the inspector's port is chosen here: when another process bound it first, take another.
        if (!(inspectorPort !== 0 && attempt < PORT_ATTEMPTS && /EADDRINUSE/.test(String(err)))) throw err;
      }
    }
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
  const cleanUp = async () => {
    if (ownDir) await rm(dataDir, { recursive: true, force: true });
    await database?.drop();
  };

  try {
    if (options.dialect === 'postgres') database = await freshPostgresDatabase('ingot_test_serve');
    await launch();
  } catch (err) {
    await stopChild('SIGKILL');
    await cleanUp();
    throw err;
  }

  const now = () => listening as Listening;
  return {
    get url() {
      return now().url;
    },
    get inspectorUrl() {
      return now().inspectorUrl;
    },
    get httpBootPort() {
      return now().httpBootPort;
    },
    get tftpPort() {
      return now().tftpPort;
    },
    dataDir,
    databaseUrl: database?.url,
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
      await cleanUp();
    },
  };
}

/**
 * A TCP port of 127.0.0.1 that was free a moment ago (bound and released). Only for what must name a
 * port before it exists and cannot report one: a port nobody listens on, or a peer that takes no port 0;
 * Ingot's own servers bind port 0 and say which port they got.
 */
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

/** Resolves with what the child reports once it listens; rejects with its output when it exits or takes too long. */
function waitListening(child: Child, timeoutMs: number, withInspector: boolean): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const text = child.out.join('');
      const api = LISTENING.exec(text);
      const inspector = INSPECTOR_LISTENING.exec(text);
      // The inspector's line follows the API's.
      if (!api || (withInspector && !inspector)) return;
      done();
      const http = HTTP_BOOT_LISTENING.exec(text);
      const tftp = TFTP_LISTENING.exec(text);
      resolve({
        url: api[1] as string,
        ...(inspector ? { inspectorUrl: inspector[1] as string } : {}),
        ...(http ? { httpBootPort: Number(http[1]) } : {}),
        ...(tftp ? { tftpPort: Number(tftp[1]) } : {}),
      });
    };
    const onExit = ({ code, signal }: { code: number | null; signal: NodeJS.Signals | null }) => {
      done();
      reject(new Error(`ingot serve exited (code ${code}, signal ${signal}) before listening:\n${tail(child)}`));
    };
    const timer = setTimeout(() => {
      done();
      child.proc.kill('SIGKILL');
      void child.exited.then(() => reject(new Error(`ingot serve did not print its listening line within ${timeoutMs} ms:\n${tail(child)}`)));
    }, timeoutMs);
    let finished = false;
    const done = () => {
      finished = true;
      clearTimeout(timer);
      child.proc.stdout?.off('data', check);
    };
    child.proc.stdout?.on('data', check);
    void child.exited.then((r) => {
      if (!finished) onExit(r);
    });
    check();
  });
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
