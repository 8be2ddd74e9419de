/**
 * Entry of the bundled ramdisk agent (dist/ingot-agent.cjs): reads the kernel command line and runs
 * the inspection flow with the process's arguments. The only module with side effects on import.
 */
import { readFileSync } from 'node:fs';
import { runAgent } from './main.js';

function kernelCmdline(): string {
  try {
    return readFileSync('/proc/cmdline', 'utf8');
  } catch {
    return '';
  }
}

const controller = new AbortController();
process.once('SIGTERM', () => controller.abort(new Error('SIGTERM')));
process.once('SIGINT', () => controller.abort(new Error('SIGINT')));
// runAgent never throws; no top-level await, so that the bundle can be CommonJS (scripts/bundle-agent.mjs).
void runAgent(process.argv.slice(2), { cmdline: kernelCmdline(), signal: controller.signal }).then((code) => {
  process.exitCode = code;
});
