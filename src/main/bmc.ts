/**
 * `ingot bmc`: serves emulated BMCs (Redfish and IPMI) for simulated machines and/or QEMU VMs until
 * SIGINT/SIGTERM, and writes the inventory that tells how to enroll them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseMachineSpecs, simulatedSpecs, type MachineSpec } from '../bmc/fleet-spec.js';
import { startFleet } from '../bmc/fleet.js';
import { fail } from '../shared/errors.js';
import { createLogger } from '../shared/logger.js';
import { untilSignal } from './until-signal.js';

export interface BmcFlags {
  simulate?: string;
  machines?: string;
  namePrefix: string;
  host: string;
  redfishPort: string;
  ipmiPortBase: string;
  username: string;
  password: string;
  diskDir: string;
  inventory?: string;
  tls?: boolean;
  ingotUrl?: string;
  bootUrl?: string;
  faultSeed?: string;
  logLevel: string;
}

function port(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw fail('InvalidParameterValue', `${flag} must be a port number (0-65535), got "${value}".`);
  return n;
}

function machineSpecs(flags: BmcFlags): MachineSpec[] {
  const specs: MachineSpec[] = [];
  if (flags.machines !== undefined) {
    let doc: unknown;
    try {
      doc = JSON.parse(readFileSync(flags.machines, 'utf8'));
    } catch (err) {
      throw fail('InvalidParameterValue', `--machines ${flags.machines}: ${(err as Error).message}`);
    }
    specs.push(...parseMachineSpecs(doc, flags.machines));
  }
  if (flags.simulate !== undefined) {
    const n = Number(flags.simulate);
    if (!Number.isInteger(n) || n < 1 || n > 10_000) throw fail('InvalidParameterValue', `--simulate must be a whole number of machines (1-10000), got "${flags.simulate}".`);
    specs.push(...simulatedSpecs(n, flags.namePrefix));
  }
  if (specs.length === 0) throw fail('MissingParameterValue', 'Say which machines to emulate: --simulate N and/or --machines FILE.');
  const names = new Set<string>();
  for (const s of specs) {
    if (names.has(s.name)) throw fail('InvalidParameterValue', `Machine name "${s.name}" is declared twice (--machines and --simulate); change --name-prefix.`);
    names.add(s.name);
  }
  return specs;
}

export async function bmcCommand(flags: BmcFlags): Promise<void> {
  const logger = createLogger(flags.logLevel);
  const specs = machineSpecs(flags);
  const ipmiPortBase = port(flags.ipmiPortBase, '--ipmi-port-base');
  if (ipmiPortBase !== 0 && ipmiPortBase + specs.length - 1 > 65535) {
    throw fail('InvalidParameterValue', `--ipmi-port-base ${ipmiPortBase} leaves no room for ${specs.length} machines below port 65535.`);
  }
  const faultSeed = flags.faultSeed === undefined ? undefined : Number(flags.faultSeed);
  if (faultSeed !== undefined && !(Number.isInteger(faultSeed) && faultSeed >= 0 && faultSeed < 2 ** 31)) {
    throw fail('InvalidParameterValue', `--fault-seed must be a whole number from 0 to 2147483647, got "${flags.faultSeed}".`);
  }
  const fleet = await startFleet({
    machines: specs,
    host: flags.host,
    redfishPort: port(flags.redfishPort, '--redfish-port'),
    ipmiPortBase,
    username: flags.username,
    password: flags.password,
    diskDir: path.resolve(flags.diskDir),
    tls: flags.tls === true,
    ...(flags.ingotUrl ? { ingotUrl: flags.ingotUrl } : {}),
    ...(flags.bootUrl ? { bootUrl: flags.bootUrl } : {}),
    ...(faultSeed !== undefined ? { faultSeed } : {}),
    logger,
  });
  for (const m of fleet.machines) {
    m.onBoot((e) => logger.info({ machine: e.machine.name, device: e.device }, `${e.machine.name} boots from ${e.device}`));
  }
  if (flags.inventory !== undefined) writeFileSync(flags.inventory, `${JSON.stringify(fleet.inventory, null, 2)}\n`);
  const ports = fleet.inventory.map((e) => e.ipmi_port);
  process.stdout.write(
    `ingot bmc: ${fleet.machines.length} machine(s); Redfish at ${fleet.redfishUrl}; IPMI on ${flags.host} ports ${Math.min(...ports)}-${Math.max(...ports)}` +
      `${flags.inventory !== undefined ? `; inventory in ${flags.inventory}` : ''}\n`,
  );
  await untilSignal(logger, 'the fleet', () => fleet.close());
}
