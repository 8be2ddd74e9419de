/** Runs a program to its end as a child process and captures its exit code, stdout and stderr. */
import { spawn } from 'node:child_process';

/** The outcome of one run. */
export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** SIGKILL after this long (default 120 s); the run then resolves with code null. */
  timeoutMs?: number;
}

/** Resolves when `cmd` exits; rejects when it cannot start. */
export function runProgram(cmd: string, args: string[], options: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
