// Bundles the ramdisk agent into one ES module, dist/ingot-agent.mjs, that runs on plain Node with no
// node_modules: everything it imports is bundled except Node's own `node:` modules. The build fails
// if anything else would stay external. `--outfile <path>` writes elsewhere (tests).
import { chmod } from 'node:fs/promises';
import process from 'node:process';
import { build } from 'esbuild';

const at = process.argv.indexOf('--outfile');
const outfile = at > 0 && process.argv[at + 1] ? process.argv[at + 1] : 'dist/ingot-agent.mjs';

const result = await build({
  entryPoints: ['src/agent/main-entry.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: false,
  sourcemap: false,
  legalComments: 'none',
  metafile: true,
  banner: { js: '#!/usr/bin/env node' },
  logLevel: 'warning',
});

const externals = new Set();
for (const output of Object.values(result.metafile.outputs)) {
  for (const imp of output.imports) if (imp.external) externals.add(imp.path);
}
const foreign = [...externals].filter((p) => !p.startsWith('node:'));
if (foreign.length) {
  process.stderr.write(`bundle-agent: ${outfile} would import non-builtin modules at run time: ${foreign.join(', ')}\n`);
  process.exit(1);
}
await chmod(outfile, 0o755);
