/**
 * The `ingot` command: `serve` plus the client commands (`node`, `port`). This is the only code that
 * reads argv, the environment and config files.
 */
import { Command, Option } from 'commander';
import { registerClientCommands } from '../cli/index.js';
import type { BmcFlags } from './bmc.js';
import { createLogger } from '../shared/logger.js';
import { loadConfig } from './load-config.js';
import { untilSignal } from './until-signal.js';
import { startServer } from './serve.js';

interface ServeFlags {
  host?: string;
  port?: string;
  dataDir?: string;
  databaseUrl?: string;
  config?: string;
  logLevel?: string;
}

function flagValues(opts: ServeFlags): Record<string, Record<string, unknown>> {
  const flags: Record<string, Record<string, unknown>> = { api: {}, database: {}, log: {} };
  if (opts.host !== undefined) flags.api!.host = opts.host;
  if (opts.port !== undefined) {
    const port = Number(opts.port);
    flags.api!.port = Number.isInteger(port) ? port : opts.port;
  }
  if (opts.dataDir !== undefined) flags.database!.data_dir = opts.dataDir;
  if (opts.databaseUrl !== undefined) flags.database!.url = opts.databaseUrl;
  if (opts.logLevel !== undefined) flags.log!.level = opts.logLevel;
  return flags;
}

async function serveCommand(opts: ServeFlags): Promise<void> {
  const config = loadConfig({ file: opts.config, env: process.env, flags: flagValues(opts) });
  const logger = createLogger(config.log.level);
  const server = await startServer(config, logger);
  process.stdout.write(`ingot: API listening on ${server.url}\n`);
  if (server.inspectorUrl) process.stdout.write(`ingot: ironic-inspector compatible API listening on ${server.inspectorUrl}\n`);
  await untilSignal(logger, 'the server', () => server.close());
}

/** Builds the program; exported for tests. */
export function buildProgram(): Command {
  const program = new Command('ingot')
    .description('Ingot: bare-metal provisioning with the Ironic API v1')
    .showHelpAfterError();
  program
    .command('serve')
    .description('Run the API and the conductor in one process (SQLite in --data-dir unless --database-url is set)')
    .option('--host <address>', 'address to listen on (default 0.0.0.0; env INGOT_API_HOST)')
    .option('--port <port>', 'TCP port (default 6385; env INGOT_API_PORT); the ironic-inspector compatible API listens on INGOT_API_INSPECTOR_PORT (default 5050, 0 = off)')
    .option('--data-dir <dir>', 'directory of the SQLite database (default ./ingot-data; env INGOT_DATABASE_DATA_DIR)')
    .option('--database-url <url>', 'postgres://user:pass@host/db selects PostgreSQL (env INGOT_DATABASE_URL)')
    .option('--config <file>', 'JSON config file with groups api, conductor, database, log, redfish, ipmi, inspector, images, dhcp, tftp, boot (env INGOT_CONFIG)')
    .addOption(new Option('--log-level <level>', 'log level (env INGOT_LOG_LEVEL)').choices(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']))
    .action(serveCommand);
  program
    .command('bmc')
    .description('Emulate the BMCs (Redfish and IPMI) of simulated machines and/or QEMU VMs, for rehearsals and tests')
    .option('--simulate <n>', 'emulate N simulated machines with varied hardware profiles')
    .option('--machines <file>', 'JSON array of machines: {name, backend: "simulated"|"qemu", username?, password?, faults?, …}')
    .option('--name-prefix <prefix>', 'names of --simulate machines: <prefix>-<i>', 'sim')
    .option('--host <address>', 'address the BMC endpoints listen on', '127.0.0.1')
    .option('--redfish-port <port>', 'TCP port of the Redfish service for all machines', '8000')
    .option('--ipmi-port-base <port>', 'UDP port of machine 0\'s IPMI endpoint; machine i answers on base+i', '6230')
    .option('--username <user>', 'BMC user of machines that declare none', 'admin')
    .option('--password <password>', 'BMC password of machines that declare none', 'password')
    .option('--disk-dir <dir>', 'directory of the machines\' disk files (sparse)', './ingot-bmc')
    .option('--inventory <file>', 'write the machines\' BMC addresses, credentials, MACs and disks as JSON')
    .option('--tls', 'serve Redfish over HTTPS with a self-signed certificate')
    .option('--ingot-url <url>', 'Ingot API URL: simulated machines that boot from the network run the agent, which reports to it')
    .addOption(new Option('--log-level <level>', 'log level').choices(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'))
    // Loaded on demand: `ingot serve` never evaluates the emulators.
    .action(async (flags: BmcFlags) => (await import('./bmc.js')).bmcCommand(flags));
  program
    .command('agent')
    .description('Run the in-RAM agent: collect this machine\'s inventory and post it to the inspection callback (ipa-* kernel parameters or flags; --help lists them)')
    .helpOption(false)
    .allowUnknownOption(true)
    .allowExcessArguments(true)
    // Loaded on demand; the agent parses its own flags (the same names as its kernel parameters).
    .action(async (_opts: unknown, cmd: Command) => {
      const { runAgentCommand } = await import('./agent.js');
      process.exitCode = await runAgentCommand(cmd.args);
    });
  registerClientCommands(program);
  return program;
}

/** Runs the `ingot` command line. */
export async function main(argv: string[]): Promise<void> {
  await buildProgram().parseAsync(argv);
}
