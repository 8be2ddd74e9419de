// Bundles the ramdisk agent into one CommonJS script, dist/ingot-agent.cjs, that runs on plain Node with
// no node_modules: everything it imports is bundled except Node's own `node:` modules. The build fails
// if anything else would stay external. `--outfile <path>` writes elsewhere (tests).
// The error messages are those of the agent (src/shared/messages/agent-bundle.ts), not the server's.
// NOTE: CommonJS, not an ES module: in a ramdisk under QEMU's TCG, Node starts the same bundle 0.3–0.9 s
// sooner as CommonJS (it skips the ES module loader), on every network boot.
import { chmod } from 'node:fs/promises';
import path from 'node:path';
import process from 'node:process';
import { build } from 'esbuild';

const at = process.argv.indexOf('--outfile');
const outfile = at > 0 && process.argv[at + 1] ? process.argv[at + 1] : 'dist/ingot-agent.cjs';

/** Resolves shared/messages/index.js to the agent's own message table (see the header). */
const agentMessages = {
  name: 'agent-messages',
  setup(b) {
    b.onResolve({ filter: /\/messages\/index\.js$/ }, (args) => {
      if (!args.importer.endsWith(path.join('src', 'shared', 'errors.ts'))) return undefined;
      return { path: path.resolve(args.resolveDir, 'messages', 'agent-bundle.ts') };
    });
  },
};

const result = await build({
  entryPoints: ['src/agent/main-entry.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minify: false,
  sourcemap: false,
  legalComments: 'none',
  metafile: true,
  banner: { js: '#!/usr/bin/env node' },
  logLevel: 'warning',
  plugins: [agentMessages],
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
