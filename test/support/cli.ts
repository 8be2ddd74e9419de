/**
 * Runs the built `ingot` client CLI (`node bin/ingot.js node …`, `port …`) as a child process against an
 * endpoint, with the caller's environment cleaned of any endpoint or microversion setting, and captures
 * its exit code, stdout and stderr.
 *
 * Needs `npm run build` (the bin runs `dist/`).
 */
import path from 'node:path';
import { runProgram, type RunResult } from './run-program.js';
import { REPO_ROOT } from './server.js';

const BIN = path.join(REPO_ROOT, 'bin', 'ingot.js');

/** The outcome of one CLI run. */
export type CliResult = RunResult;

/** Runs `ingot <args>` with `INGOT_URL=url`; resolves when it exits (SIGKILL after `timeoutMs`, default 120 s). */
export function runCli(url: string, args: string[], timeoutMs = 120_000): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('OS_') || k === 'INGOT_URL') continue;
    env[k] = v;
  }
  env['INGOT_URL'] = url;
  return runProgram(process.execPath, [BIN, ...args], { cwd: REPO_ROOT, env, timeoutMs });
}

/** Runs the CLI and requires exit code 0; the error shows both streams. */
export async function runCliOk(url: string, args: string[]): Promise<CliResult> {
  const r = await runCli(url, args);
  if (r.code !== 0) throw new Error(`ingot ${args.join(' ')} exited ${String(r.code)}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r;
}

/** Runs the CLI with `-f json` appended and parses its stdout. */
export async function runCliJson<T>(url: string, args: string[]): Promise<T> {
  const r = await runCliOk(url, [...args, '-f', 'json']);
  return JSON.parse(r.stdout) as T;
}
