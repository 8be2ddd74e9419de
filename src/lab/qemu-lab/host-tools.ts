/**
 * The host tools a lab runs (iproute2, QEMU, dnsmasq): finding them with an install hint, and running
 * `ip` with a deadline.
 */
import { execFile } from 'node:child_process';
import { errorMessage, fail } from '../../shared/errors.js';
import { findProgram } from '../build/build-tools.js';

/** A binary the lab needs and the Debian command that installs it. */
export interface LabTool {
  name: string;
  hint: string;
}

/** What a lab runs: `ip` (namespaces, bridge, taps, veth), QEMU (the VMs), dnsmasq (DHCP, managed by Ingot). */
export const LAB_TOOLS: readonly LabTool[] = [
  { name: 'ip', hint: 'apt-get install -y iproute2' },
  { name: 'qemu-system-x86_64', hint: 'apt-get install -y qemu-system-x86 qemu-utils ipxe-qemu' },
  { name: 'dnsmasq', hint: 'apt-get install -y dnsmasq-base (or dnsmasq)' },
];

/**
 * Throws DriverOperationError naming every missing tool with its install command, and the need for
 * root; returns the tools' paths by name.
 */
export function requireLabTools(tools: readonly LabTool[] = LAB_TOOLS): Record<string, string> {
  const problems: string[] = [];
  if (process.getuid?.() !== 0) problems.push(errorMessage('labNeedsRoot').message);
  const found: Record<string, string> = {};
  for (const tool of tools) {
    const file = findProgram(tool.name);
    if (file) found[tool.name] = file;
    else problems.push(errorMessage('labToolMissing', { tool: tool.name, hint: tool.hint }).message);
  }
  if (problems.length > 0) throw fail('labCannotRun', { problems: problems.join('\n  ') });
  return found;
}

/** What `ip` printed. */
export interface IpResult {
  code: number;
  stdout: string;
  stderr: string;
}

const IP_TIMEOUT_MS = 15_000;

/** Runs `ip <args>`; resolves with its exit code and output (never rejects for a non-zero exit). */
export function ipTry(args: readonly string[]): Promise<IpResult> {
  return new Promise((resolve, reject) => {
    execFile('ip', args, { timeout: IP_TIMEOUT_MS, killSignal: 'SIGKILL', encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') {
        const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
        reject(missing ? fail('labToolMissing', { tool: 'ip', hint: LAB_TOOLS[0]!.hint }) : fail('ipNotRun', { args: args.join(' '), reason: err.message }));
        return;
      }
      resolve({ code: err ? (err.code as number) : 0, stdout, stderr });
    });
  });
}

/** Runs `ip <args>`; throws DriverOperationError with ip's message on failure. */
export async function ip(...args: string[]): Promise<string> {
  const r = await ipTry(args);
  if (r.code !== 0) throw fail('ipFailed', { args: args.join(' '), reason: r.stderr.trim() || `exit ${r.code}` });
  return r.stdout;
}

/** The names of the host's network namespaces (`ip netns list`). */
export async function listNamespaces(): Promise<string[]> {
  const out = await ip('netns', 'list');
  return out.split('\n').map((line) => line.split(' ')[0] ?? '').filter(Boolean);
}

/** Whether the host network interface `name` exists. */
export async function linkExists(name: string, netns?: string): Promise<boolean> {
  const r = await ipTry([...(netns ? ['-n', netns] : []), 'link', 'show', 'dev', name]);
  return r.code === 0;
}

/** The PIDs of the processes in namespace `ns` (`ip netns pids`); empty when it does not exist. */
export async function namespacePids(ns: string): Promise<number[]> {
  const r = await ipTry(['netns', 'pids', ns]);
  if (r.code !== 0) return [];
  return r.stdout.split(/\s+/).filter(Boolean).map(Number).filter((n) => Number.isInteger(n) && n > 0);
}
