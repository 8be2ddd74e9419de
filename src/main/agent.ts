/** `ingot agent`: the in-RAM agent run from the ingot command (the ramdisk runs the bundled dist/ingot-agent.cjs). */
import { readFileSync } from 'node:fs';
import { runAgent } from '../agent/main.js';

function kernelCmdline(): string {
  try {
    return readFileSync('/proc/cmdline', 'utf8');
  } catch {
    return '';
  }
}

/** Runs the agent with `args`; resolves with its exit code. SIGINT/SIGTERM stop it. */
export async function runAgentCommand(args: string[]): Promise<number> {
  const controller = new AbortController();
  const stop = () => controller.abort(new Error('stopped by signal'));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  try {
    return await runAgent(args, { cmdline: kernelCmdline(), signal: controller.signal });
  } finally {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
  }
}
