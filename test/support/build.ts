/**
 * The end-to-end tests run what `npm run build` made (`bin/ingot.js` loads dist/ingot.mjs, the ramdisk
 * runs dist/ingot-agent.cjs, the benches dist/bench/): a dist/ older than the sources would test old
 * code. {@link requireFreshBuild} fails such a test at once, saying what to run.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** What the build writes, relative to the repository root. */
export const BUILD_OUTPUTS = ['dist/ingot.mjs', 'dist/ingot-agent.cjs', 'dist/bench/run.js'] as const;
/** What the build reads: the sources of dist/ (tests are not part of it). */
const BUILD_INPUTS = ['src', 'bench', 'scripts/bundle.mjs', 'scripts/bundle-agent.mjs', 'package.json', 'tsconfig.json', 'tsconfig.build.json'];
/** Files tsconfig.build.json leaves out: tests, their support and the conformance suites. */
const TEST_ONLY = /\.(test|test-support|case)\.ts$/;

/** The newest file below `p` that the build reads, with its modification time. */
function newest(p: string): { file: string; mtimeMs: number } | undefined {
  const st = statSync(p, { throwIfNoEntry: false });
  if (!st) return undefined;
  if (!st.isDirectory()) return TEST_ONLY.test(p) ? undefined : { file: p, mtimeMs: st.mtimeMs };
  let best: { file: string; mtimeMs: number } | undefined;
  for (const name of readdirSync(p)) {
    const found = newest(path.join(p, name));
    if (found && (!best || found.mtimeMs > best.mtimeMs)) best = found;
  }
  return best;
}

const checked = new Map<string, string | null>();

/**
 * Throws when a build output is missing or older than a source file it is built from: "dist/ is older
 * than src/ …: run npm run build". Checked once per process and repository root.
 */
export function requireFreshBuild(root: string): void {
  if (!checked.has(root)) checked.set(root, staleness(root));
  const problem = checked.get(root);
  if (problem) throw new Error(problem);
}

function staleness(root: string): string | null {
  let oldest: { file: string; mtimeMs: number } | undefined;
  for (const out of BUILD_OUTPUTS) {
    const st = statSync(path.join(root, out), { throwIfNoEntry: false });
    if (!st) return `${out} is missing: run \`npm run build\` (the end-to-end tests run dist/ through bin/ingot.js)`;
    if (!oldest || st.mtimeMs < oldest.mtimeMs) oldest = { file: out, mtimeMs: st.mtimeMs };
  }
  for (const input of BUILD_INPUTS) {
    const found = newest(path.join(root, input));
    if (found && oldest && found.mtimeMs > oldest.mtimeMs) {
      return `dist/ is older than src/ (${path.relative(root, found.file)} changed after ${oldest.file} was built): run \`npm run build\`, or these tests run old code`;
    }
  }
  return null;
}
