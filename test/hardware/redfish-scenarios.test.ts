/**
 * The shared Redfish driver checks (test/support/redfish-scenarios.ts) against Ingot's Redfish BMC
 * emulator over HTTPS, one simulated machine per check. The same checks run against sushy-tools in
 * test/peers/redfish-sushy-tools.test.ts (`npm run test:peers`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { Machine } from '../../src/bmc/machine.js';
import { simulatedProfile } from '../../src/bmc/profiles.js';
import { startRedfishEmulator, type RunningRedfishEmulator } from '../../src/bmc/redfish/emulator.js';
import { managerUri, systemUri } from '../../src/bmc/redfish/system-resources.js';
import { simulatedMachine } from '../../src/bmc/simulated.js';
import { RedfishClientPool } from '../../src/drivers/redfish/pool.js';
import { rawGet, redfishDriverScenarios, SCENARIO_SYSTEMS, startMediaServer, type MediaServer, type PeerSystem, type RedfishPeer, type ScenarioSystem } from '../support/redfish-scenarios.js';

const GIB = 1024 ** 3;

const machines = new Map<ScenarioSystem, Machine>(
  SCENARIO_SYSTEMS.map((name, i) => [name, simulatedMachine({ name: `rf-${name}`, profile: simulatedProfile(i, 'rf'), username: `user-${name}`, password: `pw-${name}` })]),
);

let bmc: RunningRedfishEmulator | undefined;
let media: MediaServer | undefined;
let caDir = '';
let peer: RedfishPeer | undefined;
const pool = new RedfishClientPool({ settings: { connection_retry_interval_ms: 20, power_poll_interval_ms: 50, task_poll_interval_ms: 50 } });

beforeAll(async () => {
  bmc = await startRedfishEmulator({ host: '127.0.0.1', port: 0, machines: [...machines.values()], tls: 'self-signed' });
  media = await startMediaServer();
  const running = bmc;
  const certificate = running.certificate;
  if (!certificate) throw new Error('the emulator started with tls: self-signed returned no certificate');
  caDir = mkdtempSync(join(tmpdir(), 'ingot-redfish-scenarios-'));
  const caFile = join(caDir, 'bmc-ca.pem');
  writeFileSync(caFile, certificate);

  const system = (name: ScenarioSystem): PeerSystem => {
    const m = machines.get(name) as Machine;
    const auth = { username: m.username, password: m.password };
    return {
      driverInfo: { redfish_address: running.url, redfish_username: m.username, redfish_password: m.password, redfish_verify_ca: caFile },
      path: systemUri(m),
      media: { cd: `${managerUri(m)}/VirtualMedia/Cd`, floppy: `${managerUri(m)}/VirtualMedia/Floppy` },
      raw: (path) => rawGet(running.url, path, auth, certificate),
    };
  };
  const profile = (machines.get('inspect') as Machine).profile;
  const rootDisk = Math.min(...profile.disks.map((d) => d.size_bytes).filter((s) => s >= 4 * GIB));
  peer = {
    system,
    images: media.images,
    inspection: {
      outcome: 'done',
      properties: {
        cpus: profile.cpu.count,
        cpu_arch: profile.cpu.architecture,
        memory_mb: profile.memory_mib,
        local_gb: Math.floor(rootDisk / GIB - 1),
        capabilities: `boot_mode:${profile.boot_mode}`,
      },
      ports: profile.nics.map((n) => ({ address: n.mac, pxe_enabled: n.pxe_enabled })),
      storageLocalGb: Math.floor(rootDisk / GIB - 1),
    },
    // The emulator inserts an image by its URL without fetching it (the machine would read it when booting).
    lacks: { mediaFetch: true },
  };
});

afterAll(async () => {
  await pool.close();
  await bmc?.close();
  await media?.close();
  if (caDir) rmSync(caDir, { recursive: true, force: true });
});

redfishDriverScenarios("Ingot's Redfish emulator", () => peer as RedfishPeer, () => pool);
