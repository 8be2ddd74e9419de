/**
 * The client commands of `ingot`: `ingot node …` and `ingot port …` against any Ironic-compatible
 * endpoint (`--url`, env `INGOT_URL` or `OS_ENDPOINT`, default http://127.0.0.1:6385). The composition
 * root creates the top-level program and calls {@link registerClientCommands}.
 *
 * A failed command prints one line `ingot: <message> (HTTP <status>)` on stderr and sets exit code 1;
 * it does not throw, so the caller's `parseAsync` resolves.
 */
import type { Command } from 'commander';
import type { ClientIo } from './context.js';
import { addNodeCrud } from './node-crud.js';
import { addNodeUpdate } from './node-update.js';
import { addPower, addProvisionVerbs } from './node-actions.js';
import { addNodeMisc } from './node-misc.js';
import { addPortCommands } from './port-commands.js';

/**
 * Adds the `node` and `port` command groups to `program`. `io` replaces the process's streams, env,
 * `fetch`, exit code and clock (tests pass their own); omitted members use the process's.
 */
export function registerClientCommands(program: Command, io: Partial<ClientIo> = {}): void {
  const full: ClientIo = {
    stdout: io.stdout ?? process.stdout,
    stderr: io.stderr ?? process.stderr,
    env: io.env ?? process.env,
    fetch: io.fetch ?? globalThis.fetch,
    ...(io.setExitCode ? { setExitCode: io.setExitCode } : {}),
    ...(io.clock ? { clock: io.clock } : {}),
  };
  const node = program.command('node').description('Manage bare-metal nodes (Ironic API)');
  if (io.stdout || io.stderr) {
    // Commander's own messages (help, usage errors) follow the injected streams too.
    node.configureOutput({ writeOut: (s) => void full.stdout.write(s), writeErr: (s) => void full.stderr.write(s) });
  }
  addNodeCrud(node, full);
  addNodeUpdate(node, full);
  addProvisionVerbs(node, full);
  addPower(node, full);
  addNodeMisc(node, full);
  addPortCommands(program, full, node.configureOutput());
}
