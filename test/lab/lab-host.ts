/** What the lab tests look at on the host: namespaces, links, and the processes of a lab directory. */
import { execFileSync } from 'node:child_process';
import { findProcesses } from '../../src/lab/qemu-lab/processes.js';

/** `ip …` output. */
export function ipOut(...args: string[]): string {
  return execFileSync('ip', args, { encoding: 'utf8' });
}

/** The network namespaces of the host. */
export const namespaces = (): string[] => ipOut('netns', 'list').split('\n').map((l) => l.split(' ')[0] as string).filter(Boolean);

/** Whether the host has a link named `name`. */
export function hostLinkExists(name: string): boolean {
  try {
    execFileSync('ip', ['link', 'show', 'dev', name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Live processes of the lab in `dir` (anything naming a file in it). */
export const labProcesses = (dir: string) => findProcesses((p) => p.cmdline.includes(`${dir}/`));
