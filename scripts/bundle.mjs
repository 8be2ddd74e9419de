// Bundles the `ingot` command into one minified ES module, dist/ingot.mjs, which bin/ingot.js loads.
// NOTE: one bundle instead of ~200 compiled files plus their dependencies' files cuts the server's
// resident memory by about a quarter (fewer module records and less garbage while loading, so V8's
// young generation is not grown to its maximum during start-up). Native and optional dependencies
// stay external: better-sqlite3 (a .node addon), pg (loaded only for a postgres:// URL) and selfsigned
// (a large X.509 library loaded only when `ingot bmc --tls` makes a certificate).
import { build } from 'esbuild';

await build({
  entryPoints: ['src/main/cli.ts'],
  outfile: 'dist/ingot.mjs',
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
