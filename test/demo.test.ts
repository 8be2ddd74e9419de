/**
 * `ingot serve --demo 4 --demo-run`: the README's first command on a small fleet. It starts Ingot with
 * simulated machines behind emulated Redfish and IPMI BMCs, inspects and deploys them, prints progress
 * and per-phase timings, and on SIGTERM stops everything and removes its temporary data directory.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireFreshBuild } from './support/build.js';
import { REPO_ROOT } from './support/server.js';

describe('ingot serve --demo', () => {
  it('inspects and deploys its simulated machines, shows the timings and cleans up', async () => {
    requireFreshBuild(REPO_ROOT);
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'ingot.js'), 'serve', '--demo', '4', '--demo-run', '--port', '0'], {
      env: { ...process.env, INGOT_API_INSPECTOR_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      const deadline = Date.now() + 120_000;
      while (!/demo: (all machines ready|\d+ machine\(s\) failed)|demo: .*Error|needs/.test(out)) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the demo did not finish:\n${out}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(out, out).toContain('demo: all machines ready');
      expect(out).toMatch(/demo: deploy +[\d.]+ s +4 active/);
      expect(out).toMatch(/step deploy\.write_image +[\d.]+ s \/ +[\d.]+ s +\(4\)/);
      const dataDir = /demo data in (\S+)/.exec(out)?.[1] as string;
      expect(existsSync(dataDir)).toBe(true);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 150_000);
});
