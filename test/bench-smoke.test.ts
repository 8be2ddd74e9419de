/**
 * Every benchmark of `npm run bench` (and `bench:deploy`, `bench:agent-write`) runs to its end on a tiny
 * fleet: the benches are not timed here, but a bench that no longer works (a default that changed under
 * it, an API it calls differently) must fail a test, not the next person who measures.
 * `bench:tftp` needs tftpd-hpa and `bench:lab` the lab's QEMU machines (test/lab runs the lab itself).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireFreshBuild } from './support/build.js';
import { REPO_ROOT } from './support/server.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ingot-bench-smoke-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs `node [nodeFlags] dist/bench/<script> args…` from the repository root; resolves with its output, rejects with it on a non-zero exit. */
function bench(script: string, args: string[], nodeFlags: string[] = []): Promise<string> {
  requireFreshBuild(REPO_ROOT);
  const file = path.join(REPO_ROOT, 'dist', 'bench', script);
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [...nodeFlags, file, ...args], { cwd: REPO_ROOT, timeout: 120_000, maxBuffer: 16 * 2 ** 20 }, (err, stdout, stderr) => {
      const output = `${stdout}${stderr}`;
      if (err) reject(new Error(`${script} ${args.join(' ')} failed (${err.message}):\n${output}`));
      else resolve(output);
    });
  });
}

// Each bench is a child process with a limit of its own (120 s); on a loaded machine the bench of the API
// alone takes several times its ~10 s, more than vitest's default limit of a test.
describe('benchmarks on a tiny fleet', { timeout: 150_000 }, () => {
  it('API, lifecycle and memory (bench/run.ts)', async () => {
    const json = path.join(dir, 'run.json');
    await bench('run.js', ['--nodes', '1000', '--creates', '800', '--lifecycle', '5', '--duration-s', '1', '--list-runs', '2', '--json', json], ['--expose-gc']);
    const figures = (JSON.parse(await readFile(json, 'utf8')) as { figures: { name: string; value: number }[] }).figures;
    expect(figures.map((f) => f.name)).toEqual(expect.arrayContaining(['node create', 'GET one node', 'list 1000 nodes, detail', '5-node lifecycle']));
    for (const f of figures) expect(f.value, f.name).toBeGreaterThan(0);
  });

  it('inspection of simulated machines (bench/inspection.ts)', async () => {
    const json = path.join(dir, 'inspection.json');
    await bench('inspection.js', ['--machines', '4', '--json', json]);
    const result = JSON.parse(await readFile(json, 'utf8')) as { machines: number; failed: number; processing_ms_median: number | null };
    expect(result).toMatchObject({ machines: 4, failed: 0 });
    expect(result.processing_ms_median).toBeGreaterThan(0);
  });

  it('power sync of emulated BMCs, against ipmitool (bench/power-sync.ts)', async () => {
    const out = await bench('power-sync.js', ['--machines', '4', '--ipmitool-nodes', '2']);
    expect(out).toMatch(/ipmi\s+next sweep .* for 4 machines/);
    expect(out).toMatch(/Ingot's native client is [\d.]+x faster/);
  });

  it('deployment of simulated machines (bench/deploy-fleet.ts)', async () => {
    const out = await bench('deploy-fleet.js', ['--machines', '3', '--image-mib', '1']);
    expect(out).toMatch(/deploy of 3 simulated machines: .*; 0 failed/);
  });

  it('authentication, http_basic against noauth (bench/auth.ts)', async () => {
    const json = path.join(dir, 'auth.json');
    await bench('auth.js', ['--duration-s', '0.5', '--rounds', '1', '--json', json]);
    const result = JSON.parse(await readFile(json, 'utf8')) as { noauth: number; http_basic: number; ratio: number };
    expect(result.noauth).toBeGreaterThan(0);
    expect(result.http_basic).toBeGreaterThan(0);
    expect(result.ratio).toBeCloseTo(result.http_basic / result.noauth);
  });

  it("the agent's image write (bench/agent-write.ts)", async () => {
    const out = await bench('agent-write.js', ['--size-mib', '8', '--runs', '1', '--dir', dir]);
    expect(out).toMatch(/image write of 8 MiB/);
  });
});
