/**
 * Test support for the client commands: a small Ironic-shaped HTTP server on 127.0.0.1 that records
 * every request and answers from a handler, and a runner that executes `ingot …` argv against it with
 * captured output and a virtual clock. It serves what a real server does not give on demand (exact
 * request shapes, other Ironic versions' error envelopes, state sequences for `--wait` on a virtual
 * clock); test/cli/client-cli.test.ts runs the built CLI against a real `ingot serve`.
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Command } from 'commander';
import { afterEach } from 'vitest';
import { registerClientCommands } from './client-commands.js';

/** One request as the server saw it. */
export interface Recorded {
  method: string;
  /** Path without the query. */
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body, or `undefined` when empty. */
  body: unknown;
}

/** What the handler answers: JSON `body`, or `raw` text, with `status` (default 200). */
export interface Reply {
  status?: number;
  body?: unknown;
  raw?: string;
}

export interface FakeIronic {
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

/**
 * `serve(handler)` for the tests of the calling file: starts a fake Ironic answering from `handler`,
 * closed after each test.
 */
export function fakeIronicPerTest(): (handler: (req: Recorded, url: string) => Reply | Promise<Reply>) => Promise<FakeIronic> {
  let server: FakeIronic | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return async (handler) => {
    server = await startFakeIronic(handler);
    return server;
  };
}

/** Starts the server; resolves once it listens. */
export async function startFakeIronic(handler: (req: Recorded, url: string) => Reply | Promise<Reply>): Promise<FakeIronic> {
  const requests: Recorded[] = [];
  let base = '';
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const u = new URL(req.url ?? '/', base);
      const rec: Recorded = {
        method: req.method ?? 'GET',
        path: u.pathname,
        query: Object.fromEntries(u.searchParams),
        headers: req.headers,
        body: text === '' ? undefined : JSON.parse(text),
      };
      requests.push(rec);
      Promise.resolve(handler(rec, base))
        .then((reply) => {
          const status = reply.status ?? 200;
          const payload = reply.raw ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
          res.writeHead(status, { 'Content-Type': 'application/json' });
          res.end(payload);
        })
        .catch((err: unknown) => {
          res.writeHead(500);
          res.end(String(err));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    requests,
    /** Closes the server (again: nothing). */
    close: () => (server.listening ? new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))) : Promise.resolve()),
  };
}

/** Ironic's error envelope around a fault string. */
export function envelope(faultstring: string, faultcode = 'Client'): { error_message: string } {
  return { error_message: JSON.stringify({ faultcode, faultstring, debuginfo: null }) };
}

/** The outcome of one command run. */
export interface RunResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** Virtual seconds the run slept (for `--wait`). */
  slept: number[];
}

/** Runs `ingot <argv>` with captured streams, the given env and a virtual clock. */
export async function runIngot(argv: string[], env: Record<string, string | undefined>): Promise<RunResult> {
  let stdout = '';
  let stderr = '';
  let exitCode = 0;
  let now = 1_000_000;
  const slept: number[] = [];
  const program = new Command('ingot').exitOverride();
  registerClientCommands(program, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env,
    fetch: globalThis.fetch,
    setExitCode: (c) => (exitCode = c),
    clock: {
      now: () => now,
      sleep: async (ms) => {
        slept.push(ms);
        now += ms;
      },
    },
  });
  try {
    await program.parseAsync(['node', 'ingot', ...argv]);
  } catch (err) {
    // exitOverride: commander's usage errors arrive here, already printed on stderr.
    exitCode = (err as { exitCode?: number }).exitCode ?? 1;
  }
  return { stdout, stderr, exitCode, slept };
}
