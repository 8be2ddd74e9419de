#!/usr/bin/env -S node --max-semi-space-size=8
// NOTE: a young generation of 2 x 8 MiB instead of V8's 2 x 16 MiB keeps a server holding 10,000 nodes
// under 100 MiB resident; it costs a few milliseconds on 1000-node list answers (docs/bench.md).
// Entry point of the `ingot` command: the composition root (src/main/cli.ts) bundled into one module
// by `npm run build` (scripts/bundle.mjs).
import { main } from '../dist/ingot.mjs';

main(process.argv).catch((err) => {
  process.stderr.write(`ingot: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
