// Bundles the `ingot` command into minified ES modules: dist/ingot.mjs, which bin/ingot.js loads, and
// the chunks it imports (dist/ingot-*.mjs).
// NOTE: a bundle instead of ~200 compiled files plus their dependencies' files cuts the server's
// resident memory by about a quarter (fewer module records and less garbage while loading, so V8's
// young generation is not grown to its maximum during start-up). It is split where the command loads
// code on demand (`import()`): `ingot serve` never reads the lab, the BMC emulator, the demo or the
// agent simulator — ~5 MiB less resident than one file holding everything (docs/bench.md).
// Native and optional dependencies stay external: better-sqlite3 (a .node addon), pg (loaded only for a
// postgres:// URL) and selfsigned (a large X.509 library loaded only when `ingot bmc --tls` makes a
// certificate).
import { readdir, rm } from 'node:fs/promises';
import { build } from 'esbuild';

// Chunk names carry a content hash: drop the previous build's so that dist/ holds one set.
const previous = await readdir('dist').catch(() => []);
await Promise.all(previous.filter((f) => /^ingot(-.+)?\.mjs(\.map)?$/.test(f)).map((f) => rm(`dist/${f}`)));

await build({
  entryPoints: { ingot: 'src/main/cli.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  splitting: true,
  chunkNames: 'ingot-[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  sourcemap: 'linked',
  legalComments: 'none',
  external: ['better-sqlite3', 'pg', 'selfsigned'],
  // Bundled CommonJS dependencies (fastify, pino) call require() for Node's built-in modules.
  banner: { js: "import { createRequire as __ingotRequire } from 'node:module'; const require = __ingotRequire(import.meta.url);" },
  logLevel: 'warning',
});
