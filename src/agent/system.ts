/**
 * The agent's view of the machine: files under a root, tools on a PATH, network addresses. Hardware
 * managers and collectors read the machine only through this, so tests can run them against a fake
 * root or with tools missing. Nothing here throws for a missing file or tool: reads answer null and
 * runs answer `missing: true`.
 */
import { execFile } from 'node:child_process';
import { access, readFile, readdir, readlink, stat } from 'node:fs/promises';
import { constants } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The outcome of running a tool. */
export interface RunResult {
  /** Exit status 0. */
  ok: boolean;
  /** The tool is not installed (not on PATH). */
  missing: boolean;
  stdout: string;
  stderr: string;
  /** Why it failed (exit status, signal, timeout), or null. */
  error: string | null;
}

/** One address of a network interface, as `os.networkInterfaces()` reports it. */
export interface NetAddress {
  family: 'IPv4' | 'IPv6';
  address: string;
  internal: boolean;
}

/** What the agent reads of the machine. Paths are absolute as seen on the machine (`/proc/cpuinfo`). */
export interface AgentSystem {
  readText(file: string): Promise<string | null>;
  readBytes(file: string): Promise<Buffer | null>;
  /** Entries of a directory, sorted; null when it does not exist or cannot be read. */
  list(dir: string): Promise<string[] | null>;
  /** Target of a symbolic link, or null. */
  readLink(file: string): Promise<string | null>;
  exists(file: string): Promise<boolean>;
  /** Runs a tool from PATH (no shell) with a timeout. */
  run(tool: string, args: string[], options?: { timeoutMs?: number; maxBytes?: number }): Promise<RunResult>;
  /** Whether a tool is on PATH. */
  hasTool(tool: string): Promise<boolean>;
  networkAddresses(): Record<string, NetAddress[]>;
  hostname(): string;
  /** Machine architecture as `uname -m` says it (x86_64, aarch64). */
  machine(): string;
}

/** Default timeout for a tool run. */
export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;

/** Options of {@link hostSystem}. */
export interface HostSystemOptions {
  /** Directory that stands for `/` when reading files (default `/`). */
  root?: string;
  /** PATH used to find tools (default: the process's PATH). */
  searchPath?: string;
}

/** The real machine (or a directory standing for its root). */
export function hostSystem(options: HostSystemOptions = {}): AgentSystem {
  const root = options.root ?? '/';
  const searchPath = options.searchPath ?? process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin';
  const at = (file: string) => (root === '/' ? file : path.join(root, file));

  async function findTool(tool: string): Promise<string | null> {
    if (tool.includes('/')) return tool;
    for (const dir of searchPath.split(':')) {
      if (!dir) continue;
      const candidate = path.join(dir, tool);
      try {
        await access(candidate, constants.X_OK);
        if ((await stat(candidate)).isFile()) return candidate;
      } catch {
        // not here
      }
    }
    return null;
  }

  return {
    async readText(file) {
      try {
        return await readFile(at(file), 'utf8');
      } catch {
        return null;
      }
    },
    async readBytes(file) {
      try {
        return await readFile(at(file));
      } catch {
        return null;
      }
    },
    async list(dir) {
      try {
        return (await readdir(at(dir))).sort();
      } catch {
        return null;
      }
    },
    async readLink(file) {
      try {
        return await readlink(at(file));
      } catch {
        return null;
      }
    },
    async exists(file) {
      try {
        await access(at(file));
        return true;
      } catch {
        return false;
      }
    },
    async hasTool(tool) {
      return (await findTool(tool)) !== null;
    },
    async run(tool, args, opts = {}) {
      const full = await findTool(tool);
      if (!full) return { ok: false, missing: true, stdout: '', stderr: '', error: `${tool} not found on PATH` };
      return new Promise<RunResult>((resolve) => {
        execFile(
          full,
          args,
          { timeout: opts.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS, maxBuffer: opts.maxBytes ?? 64 * 1024 * 1024, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } },
          (err, stdout, stderr) => {
            if (!err) return resolve({ ok: true, missing: false, stdout, stderr, error: null });
            const e = err as NodeJS.ErrnoException & { killed?: boolean; signal?: string | null; code?: number | string };
            const missing = e.code === 'ENOENT';
            const why = e.killed ? `timed out after ${opts.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS} ms` : e.signal ? `killed by ${e.signal}` : typeof e.code === 'number' ? `exit status ${e.code}` : e.message;
            resolve({ ok: false, missing, stdout: stdout ?? '', stderr: stderr ?? '', error: `${tool} ${args.join(' ')}: ${why}${stderr ? ` (${String(stderr).trim().split('\n')[0]})` : ''}` });
          },
        );
      });
    },
    networkAddresses() {
      const out: Record<string, NetAddress[]> = {};
      for (const [name, list] of Object.entries(os.networkInterfaces())) {
        out[name] = (list ?? []).map((a) => ({ family: a.family, address: a.address, internal: a.internal }));
      }
      return out;
    },
    hostname: () => os.hostname(),
    machine: () => os.machine(),
  };
}
