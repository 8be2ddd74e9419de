#!/usr/bin/env node
// Entry point of the `ingot` command; everything lives in the compiled composition root.
import { main } from '../dist/src/main/cli.js';

main(process.argv).catch((err) => {
  process.stderr.write(`ingot: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
