/**
 * The host programs the lab's image builders run (Debian's apt and dpkg, kmod's depmod, busybox,
 * syslinux, mtools, dosfstools, sfdisk), found on PATH with the Debian package that installs each, and
 * run with a deadline and an AbortSignal.
 */
import { execFile, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fail } from '../../shared/errors.js';

/** A program (or a data file, when `file` is set) a builder needs and the Debian package that has it. */
export interface BuildTool {
  /** Program name looked up on PATH (and the sbin directories). */
  name: string;
  /** Debian package(s) to install. */
  package: string;
  /** An absolute data file instead of a program (e.g. syslinux's mbr.bin). */
  file?: string;
}

/** Every tool a builder may ask for, by name. */
export const BUILD_TOOLS = {
  'apt-get': { name: 'apt-get', package: 'apt' },
  'apt-cache': { name: 'apt-cache', package: 'apt' },
  'dpkg-deb': { name: 'dpkg-deb', package: 'dpkg' },
  depmod: { name: 'depmod', package: 'kmod' },
  ldd: { name: 'ldd', package: 'libc-bin' },
  busybox: { name: 'busybox', package: 'busybox-static' },
  lsblk: { name: 'lsblk', package: 'util-linux' },
  zstd: { name: 'zstd', package: 'zstd' },
  lz4: { name: 'lz4', package: 'lz4' },
  strip: { name: 'strip', package: 'binutils' },
  sfdisk: { name: 'sfdisk', package: 'fdisk' },
  'mkfs.fat': { name: 'mkfs.fat', package: 'dosfstools' },
  syslinux: { name: 'syslinux', package: 'syslinux' },
  mcopy: { name: 'mcopy', package: 'mtools' },
  'mbr.bin': { name: 'mbr.bin', package: 'syslinux-common', file: '/usr/lib/syslinux/mbr/mbr.bin' },
} as const satisfies Record<string, BuildTool>;

/** A tool's key in {@link BUILD_TOOLS}. */
export type BuildToolName = keyof typeof BUILD_TOOLS;

const SBIN = ['/usr/local/sbin', '/usr/sbin', '/sbin'];

/** The absolute path of program `name` on PATH or in the sbin directories, or undefined. */
export function findProgram(name: string, searchPath = process.env.PATH ?? ''): string | undefined {
  for (const dir of [...searchPath.split(':').filter(Boolean), ...SBIN]) {
    const file = path.join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

function locate(tool: BuildTool): string | undefined {
  if (!('file' in tool) || !tool.file) return findProgram(tool.name);
  try {
    accessSync(tool.file, constants.R_OK);
    return tool.file;
  } catch {
    return undefined;
  }
}

/**
 * The paths of `names` by name. Throws DriverOperationError naming every missing one and ending with
 * the one `apt-get install` line that installs them all.
 */
export function requireBuildTools(names: readonly BuildToolName[]): Record<string, string> {
  const found: Record<string, string> = {};
  const missing: BuildTool[] = [];
  for (const name of names) {
    const tool: BuildTool = BUILD_TOOLS[name];
    const at = locate(tool);
    if (at) found[name] = at;
    else missing.push(tool);
  }
  if (missing.length > 0) {
    const packages = [...new Set(missing.map((t) => t.package))].sort();
    const tools = missing.map((t) => `${t.file ?? t.name} (${t.package})`).join(', ');
    throw fail('buildToolsMissing', { tools, packages: packages.join(' ') });
  }
  return found;
}

/** Options of {@link runTool}. */
export interface RunToolOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Kill the tool after this long (default 120 s). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Bytes written to the tool's standard input. */
  input?: string | Buffer;
}

/** What a tool printed. */
export interface ToolOutput {
  stdout: string;
  stderr: string;
}

const DEFAULT_TIMEOUT_MS = 120_000;

/** A tool's command line as errors name it: the program's file name and its arguments. */
const commandLine = (file: string, args: readonly string[]) => [path.basename(file), ...args].join(' ');

/** The end of what a tool printed, on a line of its own after the error (nothing when it printed nothing). */
const outputTail = (text: string) => (text ? `\n${text}` : '');

/**
 * Runs `file args…` (no shell) and resolves with its output; rejects with DriverOperationError naming
 * the command, its exit status and the end of its stderr.
 */
export function runTool(file: string, args: readonly string[], opts: RunToolOptions = {}): Promise<ToolOutput> {
  const timeout = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const child = execFile(
      file,
      args,
      { cwd: opts.cwd, env: { ...(opts.env ?? process.env), LC_ALL: 'C' }, timeout, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024, encoding: 'utf8', signal: opts.signal },
      (err, stdout, stderr) => {
        if (!err) return resolve({ stdout, stderr });
        const e = err as NodeJS.ErrnoException & { killed?: boolean; code?: number | string };
        const values = { command: commandLine(file, args), output: outputTail(String(stderr || stdout).trim().split('\n').slice(-5).join('\n')) };
        const options = { cause: err };
        if (opts.signal?.aborted) reject(fail('toolAborted', values, options));
        else if (e.killed) reject(fail('toolTimedOut', { ...values, ms: timeout }, options));
        else if (typeof e.code === 'number') reject(fail('toolExited', { ...values, status: e.code }, options));
        else reject(fail('toolNotRun', { ...values, reason: e.message }, options));
      },
    );
    if (opts.input !== undefined) child.stdin?.end(opts.input);
  });
}

/**
 * Runs `file args…` with stdin from `input` (bytes or a stream) and hands its stdout to `consume` (e.g. a pipeline into a
 * compressor and a file); resolves when both the tool exited 0 and `consume` settled, rejects with
 * DriverOperationError otherwise.
 */
export async function pipeTool(file: string, args: readonly string[], input: string | Buffer | Readable, consume: (stdout: Readable) => Promise<void>, opts: Omit<RunToolOptions, 'input'> = {}): Promise<void> {
  const timeout = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const child = spawn(file, args, { cwd: opts.cwd, env: { ...(opts.env ?? process.env), LC_ALL: 'C' }, stdio: ['pipe', 'pipe', 'pipe'], signal: opts.signal, timeout, killSignal: 'SIGKILL' });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr = (stderr + d).slice(-4000);
  });
  const exited = new Promise<void>((resolve, reject) => {
    child.on('error', (err) => reject(fail('toolNotRun', { command: commandLine(file, args), reason: err.message, output: '' }, { cause: err })));
    child.on('close', (code, sig) => {
      const values = { command: commandLine(file, args), output: outputTail(stderr.trim()) };
      if (code === 0) resolve();
      else if (sig) reject(fail('toolKilled', { ...values, signal: sig }));
      else reject(fail('toolExited', { ...values, status: code ?? '-' }));
    });
  });
  child.stdin.on('error', () => {
    // the tool exited early; its exit status says why
  });
  if (typeof input === 'string' || Buffer.isBuffer(input)) child.stdin.end(input);
  else input.pipe(child.stdin);
  const consumed = consume(child.stdout);
  const [a, b] = await Promise.allSettled([exited, consumed]);
  if (a.status === 'rejected') throw a.reason;
  if (b.status === 'rejected') throw b.reason;
}
