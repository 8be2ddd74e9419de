/**
 * Network namespaces for lab tests (DHCP, PXE, QEMU labs): namespaces, veth pairs whose ends are
 * created directly inside them, and commands run inside them. Nothing here touches an interface of
 * the host's own namespace; deleting a namespace removes its links. Needs root and iproute2.
 */
import { execFile, execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

/** A binary a lab test needs, with the command that installs it. */
export interface LabTool {
  path: string;
  hint: string;
}

/** Throws an Error naming every missing tool and how to install it (lab tests fail loudly, never skip). */
export function requireLabTools(tools: readonly LabTool[]): void {
  const problems: string[] = [];
  if (process.getuid?.() !== 0) problems.push('network namespaces need root: run this test as root');
  for (const tool of tools) {
    try {
      accessSync(tool.path, constants.X_OK);
    } catch {
      problems.push(`${tool.path} is missing: ${tool.hint}`);
    }
  }
  if (problems.length) throw new Error(`lab test prerequisites missing:\n  ${problems.join('\n  ')}`);
}

/** What a command run in a namespace printed. */
export interface ExecResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Namespaces named `<prefix>-<pid>-<suffix>`, removed by {@link NetnsLab.cleanup} and, as a last
 * resort, when the test process exits. Leftovers of earlier runs of the same prefix whose process is
 * gone are removed on construction.
 */
export class NetnsLab {
  private readonly namespaces: string[] = [];
  private readonly exitHook = () => this.cleanup();

  constructor(private readonly prefix: string) {
    for (const name of listNamespaces()) {
      const m = new RegExp(`^${prefix}-(\\d+)-`).exec(name);
      if (m && !isAlive(Number(m[1]))) deleteNamespace(name);
    }
    process.on('exit', this.exitHook);
  }

  /** Creates a namespace with its loopback up; returns its name. */
  namespace(suffix: string): string {
    const name = `${this.prefix}-${process.pid}-${suffix}`;
    ip('netns', 'add', name);
    this.namespaces.push(name);
    ip('-n', name, 'link', 'set', 'lo', 'up');
    return name;
  }

  /** A veth pair from `ifA` in `nsA` to `ifB` in `nsB` (both created inside the namespaces), both up. */
  veth(nsA: string, ifA: string, nsB: string, ifB: string): void {
    if (!this.namespaces.includes(nsA) || !this.namespaces.includes(nsB)) throw new Error('veth ends must be in namespaces this lab created');
    ip('link', 'add', ifA, 'netns', nsA, 'type', 'veth', 'peer', 'name', ifB, 'netns', nsB);
    ip('-n', nsA, 'link', 'set', ifA, 'up');
    ip('-n', nsB, 'link', 'set', ifB, 'up');
  }

  /** Runs `ip -n <ns> <args>`. */
  ip(ns: string, ...args: string[]): void {
    if (!this.namespaces.includes(ns)) throw new Error(`${ns} is not a namespace of this lab`);
    ip('-n', ns, ...args);
  }

  /** Runs a command inside `ns`; resolves with its exit code and output (also on failure). */
  exec(ns: string, cmd: string, args: readonly string[], timeoutMs = 20_000): Promise<ExecResult> {
    if (!this.namespaces.includes(ns)) return Promise.reject(new Error(`${ns} is not a namespace of this lab`));
    return new Promise((resolve) => {
      execFile('ip', ['netns', 'exec', ns, cmd, ...args], { timeout: timeoutMs, killSignal: 'SIGKILL' }, (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      });
    });
  }

  /** Deletes every namespace of this lab (synchronous, so it also runs from an exit hook). Safe to call twice. */
  cleanup(): void {
    for (const name of this.namespaces.splice(0)) deleteNamespace(name);
    process.off('exit', this.exitHook);
  }
}

function ip(...args: string[]): void {
  execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

function listNamespaces(): string[] {
  try {
    return execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' }).split('\n').map((l) => l.split(' ')[0]!).filter(Boolean);
  } catch {
    return [];
  }
}

function deleteNamespace(name: string): void {
  try {
    execFileSync('ip', ['netns', 'del', name], { stdio: 'ignore' });
  } catch {
    // already gone
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
