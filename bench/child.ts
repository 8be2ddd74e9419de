/** Child processes of the benchmark: `ingot serve` and the baseline server; always killed on exit. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of live) c.kill('SIGKILL');
});

/** The repository root, found above the compiled file (dist/bench/). */
export function repoRoot(): string {
  let dir = HERE;
  for (let i = 0; i < 6; i++) {
    if (existsSync(path.join(dir, 'bin', 'ingot.js')) && existsSync(path.join(dir, 'package.json'))) return dir;
    dir = path.dirname(dir);
  }
  throw new Error(`cannot find the repository root above ${HERE}`);
}

/** A running child server. */
export interface ChildServer {
  url: string;
  pid: number;
  /** SIGTERM, SIGKILL after 10 s; resolves once the child is gone. */
  stop(): Promise<void>;
}

/**
 * Spawns `node ARGS` and waits (bounded) for a stdout line matching `ready`, whose first group is the
 * child's URL: the children bind port 0 and say which port they got, so that no port is chosen here
 * and taken by another process before the child binds it.
 */
export async function spawnServer(args: string[], ready: RegExp, timeoutMs = 30_000): Promise<ChildServer> {
  // `ingot` runs as an operator runs it (`npx ingot serve`): the script itself, through its shebang and
  // the V8 flags it carries; anything else runs under this Node.
  const [cmd, cmdArgs] = args[0] === 'bin/ingot.js' ? [path.join(repoRoot(), 'bin', 'ingot.js'), args.slice(1)] : [process.execPath, args];
  // The inspector-compatible listener stays off unless asked for: benches must not collide on its port.
  const env = { ...process.env, INGOT_API_INSPECTOR_PORT: process.env.INGOT_API_INSPECTOR_PORT ?? '0' };
  const proc = spawn(cmd, cmdArgs, { cwd: repoRoot(), env, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(proc);
  let out = '';
  let err = '';
  const exited = new Promise<void>((resolve) => proc.once('exit', () => {
    live.delete(proc);
    resolve();
  }));
  proc.stdout.on('data', (d: Buffer) => {
    if (out.length < 100_000) out += d.toString('utf8');
  });
  proc.stderr.on('data', (d: Buffer) => {
    err = (err + d.toString('utf8')).slice(-8000);
  });
  const deadline = Date.now() + timeoutMs;
  while (!ready.test(out)) {
    if (proc.exitCode !== null || proc.signalCode !== null || Date.now() > deadline) {
      proc.kill('SIGKILL');
      await exited;
      throw new Error(`${args.join(' ')} did not become ready:\n${out.slice(-4000)}\n${err}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const url = ready.exec(out)?.[1];
  if (!url) {
    proc.kill('SIGKILL');
    await exited;
    throw new Error(`${args.join(' ')} printed no URL in its ready line ${ready}:\n${out.slice(-4000)}`);
  }
  // Keep draining the pipes so that logging never blocks the child.
  proc.stdout.removeAllListeners('data');
  proc.stdout.resume();
  return {
    url,
    pid: proc.pid ?? -1,
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill('SIGTERM');
        const t = setTimeout(() => proc.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(t);
      }
    },
  };
}

/** Resident and peak memory of a process in MiB, from /proc/PID/status (Linux). */
export function memoryMiB(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}
