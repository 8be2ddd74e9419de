/** The test harness refuses to run an end-to-end test on a missing or stale build. */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILD_OUTPUTS, requireFreshBuild } from './build.js';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

/** A repository tree with `files` written at `seconds` past the epoch each. */
function tree(files: Record<string, number>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'ingot-build-check-'));
  roots.push(root);
  for (const [file, seconds] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), '');
    utimesSync(path.join(root, file), seconds, seconds);
  }
  return root;
}

const built = (at: number) => Object.fromEntries(BUILD_OUTPUTS.map((f) => [f, at]));

describe('requireFreshBuild', () => {
  it('passes when every build output is newer than every source', () => {
    expect(() => requireFreshBuild(tree({ 'src/a.ts': 1000, 'bench/b.ts': 1000, ...built(2000) }))).not.toThrow();
  });

  it('fails naming the source that changed after the build, and what to run', () => {
    const root = tree({ 'src/old.ts': 1000, 'src/conductor/new.ts': 3000, ...built(2000) });
    expect(() => requireFreshBuild(root)).toThrow('dist/ is older than src/ (src/conductor/new.ts changed after');
    expect(() => requireFreshBuild(root)).toThrow(/run `npm run build`/);
  });

  it('ignores test files, their support and the conformance suites, which the build does not read', () => {
    expect(() => requireFreshBuild(tree({ 'src/a.ts': 1000, 'src/a.test.ts': 3000, ...built(2000) }))).not.toThrow();
    expect(() => requireFreshBuild(tree({ 'src/a.ts': 1000, 'src/a.test-support.ts': 3000, 'src/b.case.ts': 3000, ...built(2000) }))).not.toThrow();
  });

  it('fails when an output is missing', () => {
    const { 'dist/ingot-agent.cjs': _agent, ...rest } = built(2000);
    expect(() => requireFreshBuild(tree({ 'src/a.ts': 1000, ...rest }))).toThrow('dist/ingot-agent.cjs is missing: run `npm run build`');
  });
});
