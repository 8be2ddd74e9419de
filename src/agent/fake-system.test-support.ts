/** A hand-written fake {@link AgentSystem} for tests: files, links and tools given as data. */
import type { AgentSystem, NetAddress, RunResult } from './system.js';

/** What a fake tool answers: its stdout, or a full result. */
export type FakeTool = (args: string[]) => string | Partial<RunResult>;

export interface FakeSystemSpec {
  files?: Record<string, string | Buffer>;
  links?: Record<string, string>;
  /** Directories that exist but may be empty. */
  dirs?: string[];
  tools?: Record<string, FakeTool>;
  addresses?: Record<string, NetAddress[]>;
  hostname?: string;
  machine?: string;
}

/** A fake machine; directories exist when named in `dirs` or when a file or link lies below them. */
export function fakeSystem(spec: FakeSystemSpec = {}): AgentSystem & { calls: string[] } {
  const files = spec.files ?? {};
  const links = spec.links ?? {};
  const calls: string[] = [];
  const all = [...Object.keys(files), ...Object.keys(links), ...(spec.dirs ?? []).map((d) => `${d}/`)];
  const children = (dir: string): string[] | null => {
    const prefix = dir.endsWith('/') ? dir : `${dir}/`;
    const names = new Set<string>();
    let found = false;
    for (const p of all) {
      if (!p.startsWith(prefix)) continue;
      found = true;
      const rest = p.slice(prefix.length).split('/')[0];
      if (rest) names.add(rest);
    }
    return found ? [...names].sort() : null;
  };
  return {
    calls,
    async readText(file) {
      const v = files[file];
      return v === undefined ? null : v.toString();
    },
    async readBytes(file) {
      const v = files[file];
      return v === undefined ? null : Buffer.from(v);
    },
    async list(dir) {
      return children(dir);
    },
    async readLink(file) {
      return links[file] ?? null;
    },
    async exists(file) {
      return files[file] !== undefined || links[file] !== undefined || children(file) !== null;
    },
    async hasTool(tool) {
      return spec.tools?.[tool] !== undefined;
    },
    async run(tool, args) {
      calls.push([tool, ...args].join(' '));
      const fn = spec.tools?.[tool];
      if (!fn) return { ok: false, missing: true, stdout: '', stderr: '', error: `${tool} not found on PATH` };
      const answer = fn(args);
      if (typeof answer === 'string') return { ok: true, missing: false, stdout: answer, stderr: '', error: null };
      return { ok: true, missing: false, stdout: '', stderr: '', error: null, ...answer };
    },
    networkAddresses: () => spec.addresses ?? {},
    hostname: () => spec.hostname ?? 'fake',
    machine: () => spec.machine ?? 'x86_64',
  };
}
