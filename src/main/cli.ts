/**
 * The `ingot` command: `serve` plus the client commands (`node`, `port`). This is the only code that
 * reads argv, the environment and config files.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Command, Option } from 'commander';
import { registerClientCommands } from '../cli/client-commands.js';
import type { BmcFlags } from './bmc.js';
import type { LabDownFlags, LabStatusFlags, LabUpFlags, RamdiskBuildFlags, TestImageFlags } from './lab.js';
import { RAMDISK_COMPRESSIONS } from '../lab/build/reproducible-cpio.js';
import { fail } from '../shared/errors.js';
import { createLogger } from '../shared/logger.js';
import { INGOT_VERSION } from '../shared/version.js';
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
  demo?: string;
  demoRun?: boolean;
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
  if (opts.demo !== undefined) return demoCommand(opts);
  const config = loadConfig({ file: opts.config, env: process.env, flags: flagValues(opts) });
  const logger = createLogger(config.log.level);
  const server = await startServer(config, logger);
  // The API's line comes last: who waits for it finds the others already written.
  const lines = [
    server.boot.httpPort !== undefined ? `ingot: HTTP boot server listening on ${config.boot.http_host} port ${server.boot.httpPort}` : null,
    server.boot.tftpPort !== undefined ? `ingot: TFTP server listening on ${config.tftp.host} port ${server.boot.tftpPort} (UDP)` : null,
    server.inspectorUrl ? `ingot: ironic-inspector compatible API listening on ${server.inspectorUrl}` : null,
    `ingot: API listening on ${server.url}`,
  ];
  process.stdout.write(lines.filter((l) => l !== null).map((l) => `${l}\n`).join(''));
  await untilSignal(logger, 'the server', () => server.close());
}

/** The most machines `serve --demo` simulates. */
const MAX_DEMO_MACHINES = 1000;

/** `serve --demo N [--demo-run]`: see main/demo.ts. Without a data directory given, a temporary one is used and removed at exit. */
async function demoCommand(opts: ServeFlags): Promise<void> {
  const count = Number(opts.demo);
  if (!Number.isInteger(count) || count < 1 || count > MAX_DEMO_MACHINES) throw fail('flagNotWholeNumber', { flag: '--demo', min: 1, max: MAX_DEMO_MACHINES, value: String(opts.demo) });
  const { demoConfig, demoError, formatReport, startDemo } = await import('./demo.js');
  const chosen = opts.dataDir ?? process.env.INGOT_DATABASE_DATA_DIR;
  const dataDir = chosen ?? (await mkdtemp(path.join(tmpdir(), 'ingot-demo-')));
  const config = demoConfig(loadConfig({ file: opts.config, env: process.env, flags: flagValues({ ...opts, dataDir, logLevel: opts.logLevel ?? 'warn' }) }), count);
  const logger = createLogger(config.log.level);
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const server = await startServer(config, logger);
  out(`ingot: API listening on ${server.url}`);
  out(`ingot: demo data in ${dataDir}${chosen ? '' : ' (removed at exit)'}; try: OS_ENDPOINT=${server.url} OS_AUTH_TYPE=none baremetal node list`);
  const stop = new AbortController();
  let demo: Awaited<ReturnType<typeof startDemo>> | undefined;
  try {
    demo = await startDemo(server, { count, run: opts.demoRun === true, diskDir: path.join(dataDir, 'demo-disks'), out, logger, signal: stop.signal });
    demo.done.then(
      (report) => {
        for (const line of formatReport(report)) out(line);
        out(`demo: ${report.failures.length === 0 ? 'all machines ready' : `${report.failures.length} machine(s) failed`}; Ctrl-C stops Ingot and the machines`);
      },
      (err: unknown) => out(demoError(err)),
    );
  } catch (err) {
    out(demoError(err));
  }
  await untilSignal(logger, 'the server', async () => {
    stop.abort();
    await demo?.close();
    await server.close();
    if (!chosen) await rm(dataDir, { recursive: true, force: true });
  });
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
/** Where `ingot ramdisk build`, `ingot image build-test` and `ingot lab up` keep Debian's kernel and built ramdisks. */
const CACHE_DIR = path.join(tmpdir(), 'ingot-lab-cache');
// Loaded on demand: `ingot serve` never evaluates the builders or the lab.
const lab = () => import('./lab.js');

/** `ingot ramdisk build`, `ingot image build-test`, `ingot lab up|status|down` (main/lab.ts). */
function registerLabCommands(program: Command): void {
  program
    .command('ramdisk')
    .description('The deploy ramdisk machines network-boot into: the Ingot agent on Debian\'s kernel')
    .command('build')
    .description('Build the deploy kernel and initramfs from Debian packages (kernel via apt-get download, busybox, this host\'s Node, the bundled agent); cached by inputs')
    .option('--out-dir <dir>', 'where the kernel and initramfs are written', './ingot-ramdisk')
    .option('--cache-dir <dir>', 'build cache (Debian\'s kernel, built ramdisks)', CACHE_DIR)
    .option('--agent <file>', 'the bundled agent (default: dist/ingot-agent.cjs of this Ingot)')
    .option('--kernel-package <name>', 'kernel package (default linux-image-amd64; linux-image-cloud-amd64 boots VMs faster)')
    .addOption(new Option('--compression <kind>', 'initramfs compression (lz4 unpacks fastest)').choices(RAMDISK_COMPRESSIONS).default(RAMDISK_COMPRESSIONS[0]))
    .option('--force', 'rebuild even when the inputs are cached')
    .option('--json', 'print the result as JSON')
    .action(async (flags: RamdiskBuildFlags) => (await lab()).ramdiskBuildCommand(flags));
  program
    .command('image')
    .description('Disk images')
    .command('build-test')
    .description('Build a small bootable raw disk image whose OS prints a marker and the hostname of its config drive on the serial console')
    .requiredOption('--out <file>', 'the raw image to write')
    .option('--size-mib <n>', 'image size in MiB (default 24)')
    .option('--cache-dir <dir>', 'build cache (Debian\'s kernel)', CACHE_DIR)
    .option('--kernel-package <name>', 'kernel package (default linux-image-amd64; linux-image-cloud-amd64 boots VMs faster)')
    .option('--stay', 'keep the booted OS running after its report instead of powering off')
    .option('--json', 'print the result as JSON')
    .action(async (flags: TestImageFlags) => (await lab()).testImageCommand(flags));
  const labCmd = program.command('lab').description('A lab of QEMU machines that network-boot from a real Ingot inside a network namespace (needs root, QEMU, dnsmasq)');
  labCmd
    .command('up')
    .description('Create the lab network, start Ingot and the machines\' BMCs in it, enroll the machines; stays in the foreground (Ctrl-C takes it down)')
    .option('--dir <dir>', 'the lab directory', './ingot-lab')
    .option('--kernel <file>', 'deploy kernel (default: ingot ramdisk build, cached)')
    .option('--initramfs <file>', 'deploy initramfs (with --kernel)')
    .option('--kernel-package <name>', 'Debian kernel of the ramdisk and the test image (default linux-image-cloud-amd64, made for VMs; linux-image-amd64 is what servers boot)')
    .option('--machines <n>', 'number of QEMU machines (1-99, default 2)')
    .option('--redfish-share <fraction>', 'share of machines enrolled with redfish, the rest ipmi (default 0.5)')
    .option('--memory-mib <n>', 'memory per machine (default 768)')
    .option('--disk-gib <n>', 'disk per machine, sparse (default 4: the agent installs on disks of 4 GiB and more)')
    .option('--namespace <name>', 'network namespace, ingot-lab… (default ingot-lab)')
    .option('--manage', 'take the nodes to manageable through their BMCs')
    .option('--fast-track', 'fast track: agents keep running after inspection and cleaning, so cleaning and deployment skip the ramdisk boot')
    .option('--no-test-image', 'do not build the test image into <dir>/images/test.img')
    .addOption(new Option('--accel <accel>', 'QEMU accelerator; auto boots the test image with KVM first and uses KVM only if that works').choices(['auto', 'tcg', 'kvm']).default('auto'))
    .option('--cache-dir <dir>', 'build cache (Debian\'s kernel, built ramdisks)', CACHE_DIR)
    .option('--agent <file>', 'the bundled agent for the ramdisk (default: dist/ingot-agent.cjs of this Ingot)')
    .addOption(new Option('--log-level <level>', 'log level of the lab\'s ingot serve and ingot bmc').choices(LOG_LEVELS).default('info'))
    .option('--detach', 'leave the lab running and exit (ingot lab down removes it)')
    .action(async (flags: LabUpFlags) => (await lab()).labUpCommand(flags));
  labCmd
    .command('status')
    .description('Show the lab\'s processes, network and nodes')
    .option('--dir <dir>', 'the lab directory', './ingot-lab')
    .option('--json', 'print the status as JSON')
    .action(async (flags: LabStatusFlags) => (await lab()).labStatusCommand(flags));
  labCmd
    .command('down')
    .description('Stop every process of the lab and remove its namespace, interfaces and files (also after a crash)')
    .option('--dir <dir>', 'the lab directory', './ingot-lab')
    .option('--force', 'also remove a lab namespace no lab.json names, with the processes in it')
    .option('--namespace <name>', 'the namespace when lab.json is missing (default ingot-lab)')
    .option('--grace-s <seconds>', 'how long processes get after SIGTERM (default 15)')
    .action(async (flags: LabDownFlags) => (await lab()).labDownCommand(flags));
}

/** Builds the program; exported for tests. */
export function buildProgram(): Command {
  const program = new Command('ingot')
    .description('Ingot: bare-metal provisioning with the Ironic API v1')
    .version(INGOT_VERSION, '-V, --version', 'print the version of Ingot')
    .showHelpAfterError();
  program
    .command('serve')
    .description('Run the API and the conductor in one process (SQLite in --data-dir unless --database-url is set)')
    .option('--host <address>', 'address to listen on (default 127.0.0.1; env INGOT_API_HOST); any other needs api.auth_strategy http_basic (env INGOT_API_AUTH_STRATEGY)')
    .option('--port <port>', 'TCP port (default 6385; env INGOT_API_PORT); the ironic-inspector compatible API listens on INGOT_API_INSPECTOR_PORT (default 5050, 0 = off)')
    .option('--data-dir <dir>', 'directory of the SQLite database (default ./ingot-data; env INGOT_DATABASE_DATA_DIR)')
    .option('--database-url <url>', 'postgres://user:pass@host/db selects PostgreSQL (env INGOT_DATABASE_URL)')
    .option('--config <file>', 'JSON config file with groups api, conductor, database, log, redfish, ipmi, inspector, images, dhcp, tftp, boot (env INGOT_CONFIG)')
    .addOption(new Option('--log-level <level>', 'log level (env INGOT_LOG_LEVEL)').choices(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']))
    .option('--demo <machines>', 'start with this many simulated machines behind emulated Redfish and IPMI BMCs, enrolled and made available (a temporary --data-dir unless one is given)')
    .option('--demo-run', 'with --demo: also inspect and deploy the machines, showing progress and per-phase timings')
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
    .option('--fault-seed <n>', 'seed the random draws of the drop_rate and error_rate faults, so that a run repeats exactly')
    .option('--ingot-url <url>', 'Ingot API URL: simulated machines that boot from the network run the agent, which reports to it')
    .option('--boot-url <url>', 'Ingot HTTP boot server URL: simulated machines that boot from the network fetch their iPXE script and images there and run the agent its kernel parameters ask for')
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
  registerLabCommands(program);
  registerClientCommands(program);
  return program;
}

/** Runs the `ingot` command line. */
export async function main(argv: string[]): Promise<void> {
  await buildProgram().parseAsync(argv);
}
