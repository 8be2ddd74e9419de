/**
 * The Redfish driver against sushy-tools' emulator (sushy-emulator with its fake systems driver), the
 * Redfish peer Ironic's own CI uses: the shared driver checks of test/support/redfish-scenarios.ts (the same
 * list runs against Ingot's emulator in `npm test`) and the power and management conformance suites.
 *
 * Needs the sushy-tools source (INGOT_SUSHY_TOOLS_DIR, see test/support/sushy-emulator.ts): run with
 * `npm run test:peers`, not part of `npm test`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/domain/node.js';
import { sampleTask } from '../../src/drivers/interfaces/sample-task.test-support.js';
import { managementConformance } from '../../src/drivers/interfaces/management.case.js';
import { powerConformance } from '../../src/drivers/interfaces/power.case.js';
import { redfishManagement } from '../../src/drivers/redfish/management.js';
import { RedfishClientPool } from '../../src/drivers/redfish/pool.js';
import { redfishPower } from '../../src/drivers/redfish/power.js';
import {
  rawGet, redfishDriverScenarios, SCENARIO_SYSTEMS, startMediaServer, type MediaServer, type PeerSystem, type RedfishPeer, type ScenarioSystem,
} from '../support/redfish-scenarios.js';
import { startSushyEmulator, type FakeSystem, type RunningSushy } from '../support/sushy-emulator.js';

const GIB = 1024 ** 3;
const USER = 'ingot';
const PASSWORD = 'sushy-peer-pw';
const EXTRA = ['conformance-power', 'conformance-management', 'alias'] as const;

/** One fake system per check, powered off, with two NICs. */
const systems: FakeSystem[] = [...SCENARIO_SYSTEMS, ...EXTRA].map((name, i) => {
  const n = (i + 1).toString(16).padStart(2, '0');
  return {
    uuid: `5e5e5e5e-0000-4000-8000-0000000000${n}`,
    name: `sushy-${name}`,
    power_state: 'Off',
    nics: [{ mac: `52:54:00:5e:${n}:01` }, { mac: `52:54:00:5e:${n}:02` }],
  };
});
const byName = (name: string) => systems.find((s) => s.name === `sushy-${name}`) as FakeSystem;

let sushy: RunningSushy | undefined;
let media: MediaServer | undefined;
let peer: RedfishPeer | undefined;
// Power changes of the fake driver land 1 to 11 s after the request (random): poll often, allow 30 s.
const pool = new RedfishClientPool({ settings: { connection_retry_interval_ms: 20, power_poll_interval_ms: 250, power_state_timeout_s: 30 } });

function driverInfo(s: RunningSushy, sys: FakeSystem): JsonObject {
  return {
    redfish_address: s.url, redfish_system_id: `/redfish/v1/Systems/${sys.uuid}`,
    redfish_username: USER, redfish_password: PASSWORD, redfish_verify_ca: s.caFile,
  };
}

const conformanceInfo: Record<'power' | 'management', JsonObject> = { power: {}, management: {} };

beforeAll(async () => {
  const inspected = byName('inspect');
  sushy = await startSushyEmulator({
    systems,
    drives: { [inspected.uuid]: [{ id: 'small', capacityBytes: 2 * GIB }, { id: 'root', capacityBytes: 120 * GIB }, { id: 'data', capacityBytes: 480 * GIB }] },
    username: USER,
    password: PASSWORD,
  });
  media = await startMediaServer();
  const s = sushy;
  const system = (name: ScenarioSystem): PeerSystem => {
    const sys = byName(name);
    const path = `/redfish/v1/Systems/${sys.uuid}`;
    return {
      driverInfo: driverInfo(s, sys),
      path,
      media: { cd: `${path}/VirtualMedia/Cd`, floppy: `${path}/VirtualMedia/Floppy` },
      raw: (p) => rawGet(s.url, p, { username: USER, password: PASSWORD }, s.certificate),
    };
  };
  Object.assign(conformanceInfo.power, driverInfo(s, byName('conformance-power')));
  Object.assign(conformanceInfo.management, driverInfo(s, byName('conformance-management')));
  peer = {
    system,
    images: media.images,
    inspection: {
      // The fake driver has no processors: GET …/Processors answers 500 "'FakeDriver' object has no attribute
      // 'get_processors'", and the system no ProcessorSummary.Count nor MemorySummary, so inspection cannot
      // find cpus (Ironic's fails there too). Its SimpleStorage (500 "Not implemented") and empty Volumes
      // collection (500) read as empty.
      outcome: 'fails',
      error: /^Redfish BMC https:\/\/127\.0\.0\.1:\d+ answered 500 to GET \/redfish\/v1\/Systems\/[0-9a-f-]+\/Processors: 'FakeDriver' object has no attribute 'get_processors'/,
      ports: inspected.nics.map((n, i) => ({ address: n.mac, pxe_enabled: i === 0 })),
      // The smallest drive of at least 4 GiB is the 120 GiB one.
      storageLocalGb: 119,
    },
    lacks: {
      oneTimeBoot: true,
      nmi: /answered 500 to POST \/redfish\/v1\/Systems\/[0-9a-f-]+\/Actions\/ComputerSystem\.Reset: Power state Nmi is not supported/,
      sessions: true,
    },
  };
}, 60_000);

afterAll(async () => {
  await pool.close();
  await sushy?.close();
  await media?.close();
});

redfishDriverScenarios('sushy-tools (fake driver)', () => peer as RedfishPeer, () => pool);

const nodeOf = (which: 'power' | 'management') => ({ driver: 'redfish', driver_info: conformanceInfo[which] });
powerConformance('redfish against sushy-tools', () => redfishPower({ pool }), nodeOf('power'));
managementConformance('redfish against sushy-tools', () => redfishManagement({ pool }), {
  remembers: true, nodeFields: nodeOf('management'), mediaUrl: () => (media as MediaServer).images.cd,
});

describe('redfish driver against sushy-tools: what only sushy-tools does', () => {
  it('follows the redirect from a system named by its alias to its UUID', async () => {
    const s = sushy as RunningSushy;
    const sys = byName('alias');
    const task = sampleTask({ driver: 'redfish', driver_info: { ...driverInfo(s, sys), redfish_system_id: `/redfish/v1/Systems/${sys.name}` } });
    const power = redfishPower({ pool });
    expect(await power.getPowerState(task)).toBe('power off');
    await redfishManagement({ pool }).setBootDevice(task, 'pxe', true);
    const raw = await rawGet(s.url, `/redfish/v1/Systems/${sys.uuid}`, { username: USER, password: PASSWORD }, s.certificate);
    expect(raw['Boot']).toMatchObject({ BootSourceOverrideTarget: 'Pxe' });
    // Both went through sushy-tools' redirect (its request log).
    expect(s.output()).toMatch(/"GET \/redfish\/v1\/Systems\/sushy-alias HTTP\/1\.1" 307/);
    expect(s.output()).toMatch(/"PATCH \/redfish\/v1\/Systems\/sushy-alias HTTP\/1\.1" 307/);
  });
});
