#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --max-semi-space-size=8
// NOTE: a young generation of 2 x 8 MiB instead of V8's 2 x 16 MiB keeps a server holding 10,000 nodes
// under 100 MiB resident; it costs a few milliseconds on 1000-node list answers. Two malloc arenas
// instead of glibc's eight per core save another ~2 MiB: only the main thread allocates much (docs/bench.md).
// Entry point of the `ingot` command: the composition root (src/main/cli.ts) bundled into one module
// by `npm run build` (scripts/bundle.mjs).
const { main } = await import('../dist/ingot.mjs').catch((err) => {
  process.stderr.write(`ingot: cannot load dist/ingot.mjs (${err.message}); run \`npm run build\` (npm ci runs it)\n`);
  process.exit(1);
});

main(process.argv).catch((err) => {
  // Ingot's errors (a stable code and an operator-facing message) and system errors (a port in use, a
  // missing file) speak for themselves; anything else is a bug: show its stack.
  const known = err instanceof Error && typeof err.code === 'string' && (typeof err.status === 'number' || typeof err.syscall === 'string');
  process.stderr.write(`ingot: ${known ? err.message : err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
