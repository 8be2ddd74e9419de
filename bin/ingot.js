#!/usr/bin/env node
// Entry point of the `ingot` command: the composition root (src/main/cli.ts) bundled into one module
// by `npm run build` (scripts/bundle.mjs).
import { main } from '../dist/ingot.mjs';

main(process.argv).catch((err) => {
  process.stderr.write(`ingot: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
