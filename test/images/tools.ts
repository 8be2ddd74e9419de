/** Real peers for the image tests: each must be installed; a missing one fails the test with the install hint. */
import { spawnSync } from 'node:child_process';

/** The tools and the Debian package that brings each (scripts/test-setup.sh installs them). */
export const TOOLS = {
  'qemu-img': { probe: ['qemu-img', '--version'], hint: 'apt-get install -y qemu-utils' },
  isoinfo: { probe: ['isoinfo', '-version'], hint: 'apt-get install -y genisoimage' },
  xorriso: { probe: ['xorriso', '-version'], hint: 'apt-get install -y xorriso' },
  pycdlib: { probe: ['/usr/bin/python3', '-c', 'import pycdlib'], hint: 'apt-get install -y python3-pycdlib' },
  blkid: { probe: ['blkid', '-V'], hint: 'apt-get install -y util-linux' },
} as const;

/** Throws (failing the test) unless `tool` runs. */
export function requireTool(tool: keyof typeof TOOLS): void {
  const t = TOOLS[tool];
  const [cmd, ...args] = t.probe;
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.error || r.status !== 0) {
    throw new Error(`${tool} is required by this test and is not usable (${r.error?.message ?? r.stderr.trim()}): ${t.hint}, or run scripts/test-setup.sh`);
  }
}

/** Runs a command and returns stdout; throws with stderr on failure. */
export function run(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status}): ${r.stderr}`);
  return r.stdout;
}

/** Runs a command and returns stdout as bytes. */
export function runBytes(cmd: string, args: string[]): Buffer {
  const r = spawnSync(cmd, args, { maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status}): ${r.stderr.toString()}`);
  return r.stdout;
}
