/**
 * Runs Debian's real OpenStack clients against an Ironic-compatible endpoint: the `baremetal` CLI
 * (python3-ironicclient + python3-openstackclient) and openstacksdk (with Debian's /usr/bin/python3).
 *
 * The endpoint is Ingot started by {@link startServer}, or any running endpoint named by
 * `INGOT_COMPAT_URL` (used to check these expectations against the real Ironic).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { lazy } from './lazy.js';
import { runProgram, type RunResult } from './run-program.js';
import { startServer, type RunningServer } from './server.js';
import { DIALECTS, type Dialect } from './stores.js';

/** Debian's clients; `python3` on PATH may be another interpreter without them. */
export const BAREMETAL = '/usr/bin/baremetal';
export const PYTHON = '/usr/bin/python3';
export const INSTALL_HINT =
  'apt-get install python3-ironicclient python3-openstackclient python3-openstacksdk';

/** The newest microversion Debian 12's clients (Ironic 21.4) know. */
export const CLIENT_VERSION = '1.82';

/** The compatibility tests' Python scripts (test/compat/*.py). */
const SCRIPTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'compat');

/** Result of one client run. */
export type { RunResult };

/** An endpoint under test: Ingot started for the test, or an external one. */
export interface Target {
  url: string;
  /** Ingot's child process, when this test started it. */
  server?: RunningServer;
  close(): Promise<void>;
}

/** Starts Ingot on `dialect` (default SQLite), or uses `INGOT_COMPAT_URL`. */
export async function openTarget(dialect?: Dialect | 'external'): Promise<Target> {
  const external = process.env.INGOT_COMPAT_URL;
  if (external) return { url: external.replace(/\/+$/, ''), close: async () => {} };
  const server = await startServer(dialect && dialect !== 'external' ? { dialect } : {});
  return { url: server.url, server, close: () => server.dispose() };
}

/**
 * The target of the calling `describe` block, Debian's clients required: opened before its first test
 * (on `dialect`, as {@link openTarget}), closed after its last.
 */
export function useTarget(dialect?: Dialect | 'external'): Target {
  let target: Target | undefined;
  beforeAll(async () => {
    requireClients();
    target = await openTarget(dialect);
  }, 60_000);
  afterAll(async () => {
    await target?.close();
  });
  return lazy(() => target, 'the target');
}

/** The databases a test runs Ingot on: both dialects, or once against the endpoint of `INGOT_COMPAT_URL`. */
export function targetDialects(): (Dialect | 'external')[] {
  return process.env.INGOT_COMPAT_URL ? ['external'] : [...DIALECTS];
}

/** Fails (never skips) when Debian's clients are not installed. */
export function requireClients(): void {
  for (const bin of [BAREMETAL, PYTHON]) {
    if (!existsSync(bin)) throw new Error(`${bin} is missing; install Debian's real clients: ${INSTALL_HINT}`);
  }
}

/** A user of an `http_basic` Ingot, for the clients' `OS_AUTH_TYPE=http_basic`. */
export interface BasicCredentials {
  username: string;
  password: string;
}

/**
 * The environment for the Python clients: no Keystone, the endpoint, the client's microversion; with
 * `auth`, HTTP basic authentication (`OS_AUTH_TYPE=http_basic`, `OS_USERNAME`, `OS_PASSWORD`).
 */
function clientEnv(url: string, auth?: BasicCredentials): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    // Keep pyenv/virtualenv and leftover OS_* settings away from Debian's Python.
    if (k.startsWith('PYTHON') || k.startsWith('OS_') || k === 'VIRTUAL_ENV' || k.startsWith('PYENV')) continue;
    env[k] = v;
  }
  return {
    ...env,
    OS_ENDPOINT: url,
    OS_AUTH_TYPE: auth ? 'http_basic' : 'none',
    ...(auth ? { OS_USERNAME: auth.username, OS_PASSWORD: auth.password } : {}),
    OS_BAREMETAL_API_VERSION: CLIENT_VERSION,
    HOME: process.env.HOME ?? '/tmp',
    LANG: 'C.UTF-8',
  };
}

/** Runs a program to completion with a hard time limit; a missing program fails with the install hint. */
export async function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<RunResult> {
  try {
    return await runProgram(cmd, args, { env, timeoutMs });
  } catch (err) {
    throw new Error(`cannot run ${cmd}: ${(err as Error).message}; install Debian's real clients: ${INSTALL_HINT}`);
  }
}

/** Runs `baremetal ARGS` against `url`. */
export function baremetal(url: string, args: string[], timeoutMs?: number): Promise<RunResult> {
  return run(BAREMETAL, args, clientEnv(url), timeoutMs);
}

/** Runs `baremetal ARGS` against `url` as `auth` (HTTP basic), or with no credentials at all. */
export function baremetalAs(auth: BasicCredentials | undefined, url: string, args: string[]): Promise<RunResult> {
  return run(BAREMETAL, args, clientEnv(url, auth));
}

/** Runs `baremetal ARGS -f json`, requires exit 0 and returns the parsed output. */
export async function baremetalJson<T = Record<string, unknown>>(url: string, args: string[]): Promise<T> {
  const r = await baremetal(url, [...args, '-f', 'json']);
  if (r.code !== 0) {
    throw new Error(`baremetal ${args.join(' ')} exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  }
  try {
    return JSON.parse(r.stdout) as T;
  } catch {
    throw new Error(`baremetal ${args.join(' ')} printed no JSON:\n${r.stdout}\n${r.stderr}`);
  }
}

/** Runs `baremetal ARGS`, requiring exit 0. */
export async function baremetalOk(url: string, args: string[]): Promise<RunResult> {
  const r = await baremetal(url, args);
  if (r.code !== 0) {
    throw new Error(`baremetal ${args.join(' ')} exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  }
  return r;
}

/** Runs a Python script of test/compat/ with Debian's Python and returns its JSON output. */
export async function python<T>(script: string, args: string[], url: string, timeoutMs = 240_000, auth?: BasicCredentials): Promise<T> {
  const r = await run(PYTHON, [path.join(SCRIPTS, script), url, ...args], clientEnv(url, auth), timeoutMs);
  if (r.code !== 0) throw new Error(`${script} exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  const last = r.stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(last) as T;
  } catch {
    throw new Error(`${script} printed no JSON:\n${r.stdout}\n${r.stderr}`);
  }
}

/** A name unique to this run, so that tests can share an external endpoint. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
}

/** A random locally administered MAC address. */
export function randomMac(): string {
  const bytes = [0x52, 0x54, 0x00, ...Array.from({ length: 3 }, () => Math.floor(Math.random() * 256))];
  return bytes.map((b) => b.toString(16).padStart(2, '0')).join(':');
}

/**
 * The last line the CLI printed on stderr (its error message), without the ` (Request-ID: …)` suffix
 * the client adds when the server sends `X-OpenStack-Request-Id`; whether that header is sent is
 * asserted once, separately.
 */
export function errorLine(r: RunResult): string {
  const lines = r.stderr.trim().split('\n');
  return (lines[lines.length - 1] ?? '').replace(/ \(Request-ID: [^)]*\)$/, '');
}
