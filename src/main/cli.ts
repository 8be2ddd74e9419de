/**
 * The `ingot` command: `serve` plus the client commands (`node`, `port`). This is the only code that
 * reads argv, the environment and config files.
 */
import { Command, Option } from 'commander';
import { registerClientCommands } from '../cli/index.js';
import { createLogger } from '../shared/logger.js';
import { loadConfig } from './load-config.js';
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
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      logger.info({ signal }, 'signal received');
      server.close().then(resolve, (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exitCode = 1;
        resolve();
      });
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
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
    .option('--port <port>', 'TCP port (default 6385; env INGOT_API_PORT)')
    .option('--data-dir <dir>', 'directory of the SQLite database (default ./ingot-data; env INGOT_DATABASE_DATA_DIR)')
    .option('--database-url <url>', 'postgres://user:pass@host/db selects PostgreSQL (env INGOT_DATABASE_URL)')
    .option('--config <file>', 'JSON config file with groups api, conductor, database, log (env INGOT_CONFIG)')
    .addOption(new Option('--log-level <level>', 'log level (env INGOT_LOG_LEVEL)').choices(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']))
    .action(serveCommand);
  registerClientCommands(program);
  return program;
}

/** Runs the `ingot` command line. */
export async function main(argv: string[]): Promise<void> {
  await buildProgram().parseAsync(argv);
}
