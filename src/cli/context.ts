/**
 * What every client command shares: the injectable I/O, the common options (`--url`,
 * `--os-baremetal-api-version`, `--format`) and the action wrapper that turns any error into one line
 * on stderr and exit code 1.
 */
import type { Command } from 'commander';
import { IronicClient } from './http-client.js';
import { parseFormat } from './output.js';
import type { OutputFormat } from './output.js';
import { renderError } from './api-error.js';
import { fail } from '../shared/errors.js';

/** Anything with `write(text)` (process.stdout, a test buffer). */
export interface Writer {
  write(text: string): unknown;
}

/** Time for `--wait` polling; tests pass a virtual clock. */
export interface WaitClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** The outside world of the client commands. Every member has a process default. */
export interface ClientIo {
  stdout: Writer;
  stderr: Writer;
  env: Record<string, string | undefined>;
  fetch: typeof fetch;
  /** Records the exit status of a failed command (default: sets `process.exitCode`). */
  setExitCode?: (code: number) => void;
  /** Clock for `--wait` (default: wall clock and timers). */
  clock?: WaitClock;
}

/** Endpoint used when neither `--url`, `INGOT_URL` nor `OS_ENDPOINT` is given. */
export const DEFAULT_URL = 'http://127.0.0.1:6385';

/** The state of one command run. */
export interface RunContext {
  client: IronicClient;
  format: OutputFormat;
  io: ClientIo;
  clock: WaitClock;
  out(text: string): void;
  err(text: string): void;
}

/** Common options of every client command. */
export interface CommonOptions {
  url?: string;
  osBaremetalApiVersion?: string;
  format?: string;
}

/** Adds the common options to a leaf command. */
export function withCommon(cmd: Command): Command {
  return cmd
    .option('--url <url>', `API endpoint (env INGOT_URL or OS_ENDPOINT; default ${DEFAULT_URL})`)
    .option('--os-baremetal-api-version <version>', 'API microversion to request, 1.Y or latest (env OS_BAREMETAL_API_VERSION; default latest)')
    .option('-f, --format <format>', 'output format: table, json or value', 'table');
}

/** The run context for a command's parsed common options. */
export function contextFor(io: ClientIo, opts: CommonOptions): RunContext {
  const url = opts.url ?? nonEmpty(io.env['INGOT_URL']) ?? nonEmpty(io.env['OS_ENDPOINT']) ?? DEFAULT_URL;
  const apiVersion = opts.osBaremetalApiVersion ?? nonEmpty(io.env['OS_BAREMETAL_API_VERSION']) ?? 'latest';
  if (apiVersion !== 'latest' && !/^1\.\d+$/.test(apiVersion)) {
    throw fail('apiVersionOptionInvalid', { version: apiVersion });
  }
  return {
    client: new IronicClient({ url, apiVersion, fetch: io.fetch }),
    format: parseFormat(opts.format ?? 'table'),
    io,
    clock: io.clock ?? systemWaitClock,
    out: (text) => void io.stdout.write(text),
    err: (text) => void io.stderr.write(text),
  };
}

/** Handler of a client command: positional arguments, then the command's options. */
export type Handler<O> = (ctx: RunContext, args: (string | string[] | undefined)[], opts: O & CommonOptions) => Promise<void>;

/**
 * Wraps a handler as a commander action: builds the context, runs it, and renders any error as
 * `ingot: <message>` on stderr with exit code 1 (HTTP errors add `(HTTP <status>)`).
 */
export function action<O>(io: ClientIo, handler: Handler<O>): (...args: unknown[]) => Promise<void> {
  return async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    const opts = command.opts() as O & CommonOptions;
    const positional = args.slice(0, -2) as (string | string[] | undefined)[];
    try {
      await handler(contextFor(io, opts), positional, opts);
    } catch (err) {
      io.stderr.write(`ingot: ${renderError(err)}\n`);
      (io.setExitCode ?? setProcessExitCode)(1);
    }
  };
}

const systemWaitClock: WaitClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

function setProcessExitCode(code: number): void {
  process.exitCode = code;
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}
