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

/** The most machines `--simulate` starts. */
const MAX_SIMULATED = 10_000;
/** The largest `--fault-seed` (a 31-bit seed). */
const MAX_FAULT_SEED = 2 ** 31 - 1;

function port(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw fail('flagNotPort', { flag, value });
  return n;
}

function machineSpecs(flags: BmcFlags): MachineSpec[] {
  const specs: MachineSpec[] = [];
  if (flags.machines !== undefined) {
    let doc: unknown;
    try {
      doc = JSON.parse(readFileSync(flags.machines, 'utf8'));
    } catch (err) {
      throw fail('machinesFileInvalid', { path: flags.machines, reason: (err as Error).message });
    }
    specs.push(...parseMachineSpecs(doc, flags.machines));
  }
  if (flags.simulate !== undefined) {
    const n = Number(flags.simulate);
    if (!Number.isInteger(n) || n < 1 || n > MAX_SIMULATED) throw fail('flagNotWholeNumber', { flag: '--simulate', min: 1, max: MAX_SIMULATED, value: flags.simulate });
    specs.push(...simulatedSpecs(n, flags.namePrefix));
  }
  if (specs.length === 0) throw fail('machinesMissing');
  const names = new Set<string>();
  for (const s of specs) {
    if (names.has(s.name)) throw fail('machineNameClash', { name: s.name });
    names.add(s.name);
  }
  return specs;
}

export async function bmcCommand(flags: BmcFlags): Promise<void> {
  const logger = createLogger(flags.logLevel);
  const specs = machineSpecs(flags);
  const ipmiPortBase = port(flags.ipmiPortBase, '--ipmi-port-base');
  if (ipmiPortBase !== 0 && ipmiPortBase + specs.length - 1 > 65535) {
    throw fail('ipmiPortBaseTooHigh', { base: ipmiPortBase, count: specs.length });
  }
  const faultSeed = flags.faultSeed === undefined ? undefined : Number(flags.faultSeed);
  if (faultSeed !== undefined && !(Number.isInteger(faultSeed) && faultSeed >= 0 && faultSeed <= MAX_FAULT_SEED)) {
    throw fail('flagNotWholeNumber', { flag: '--fault-seed', min: 0, max: MAX_FAULT_SEED, value: String(flags.faultSeed) });
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
