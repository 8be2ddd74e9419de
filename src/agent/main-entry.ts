/**
 * Entry of the bundled ramdisk agent (dist/ingot-agent.mjs): reads the kernel command line and runs
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
process.exitCode = await runAgent(process.argv.slice(2), { cmdline: kernelCmdline(), signal: controller.signal });
