/**
 * Virtual media through the public API against Ingot's Redfish BMC emulator, all in this process over
 * real sockets: the API (listening on loopback) and the conductor with the `redfish` hardware type, and
 * the emulator playing the machine's BMC. An ISO attached with `POST /v1/nodes/{node}/vmedia` shows up
 * inserted in the machine's virtual CD; `GET …/vmedia` reads the BMC's VirtualMedia; `DELETE` ejects.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/api/app.js';
import { testApiConfig } from '../../src/api/app.test-support.js';
import { simulatedProfile } from '../../src/bmc/profiles.js';
import { startRedfishEmulator, type RunningRedfishEmulator } from '../../src/bmc/redfish/emulator.js';
import { simulatedMachine } from '../../src/bmc/simulated.js';
import { startTestConductor, type TestConductor } from '../../src/conductor/conductor.test-support.js';
import { silentLogger } from '../../src/shared/logger.js';
import { api, apiOk } from '../support/http.js';

const machine = simulatedMachine({ name: 'vm-0', profile: simulatedProfile(0), username: 'admin', password: 'pw-vm' });

let bmc: RunningRedfishEmulator | undefined;
let t: TestConductor | undefined;
let app: FastifyInstance | undefined;
let base = '';

beforeAll(async () => {
  bmc = await startRedfishEmulator({ host: '127.0.0.1', port: 0, machines: [machine], tls: false });
  t = await startTestConductor({ enabled_hardware_types: ['redfish'] });
  app = buildApp({ store: t.store, conductor: t.conductor.client, config: testApiConfig(), logger: silentLogger() });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}, 30_000);

afterAll(async () => {
  await app?.close();
  await t?.close();
  await bmc?.close();
});

type NodeView = { uuid: string; reservation: string | null; last_error: string | null };
type Vmedia = { media_types: string[]; inserted: boolean | null; image: string | null };

/** The node once the conductor's worker released it. */
async function settled(uuid: string, timeoutMs = 10_000): Promise<NodeView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const n = await apiOk<NodeView>(base, 'GET', `/v1/nodes/${uuid}`);
    if (n.reservation === null) return n;
    if (Date.now() > deadline) throw new Error(`node ${uuid} still locked by ${n.reservation} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('virtual media through the API on the Redfish emulator', () => {
  it('attaches an ISO into the machine’s virtual CD, lists it, refuses a second image, and detaches', async () => {
    const node = await apiOk<NodeView>(base, 'POST', '/v1/nodes', {
      name: 'vm-0', driver: 'redfish',
      driver_info: { redfish_address: bmc?.url, redfish_username: 'admin', redfish_password: 'pw-vm', redfish_system_id: '/redfish/v1/Systems/vm-0' },
    });
    const iso = 'http://127.0.0.1:8080/images/config.iso';
    expect(machine.virtualMedia()).toMatchObject({ image: null, inserted: false });

    const attached = await api(base, 'POST', `/v1/nodes/${node.uuid}/vmedia`, { device_type: 'cdrom', image_url: iso, image_download_source: 'http' });
    expect(attached.status, JSON.stringify(attached.body)).toBe(204);
    expect((await settled(node.uuid)).last_error).toBeNull();
    expect(machine.virtualMedia()).toEqual({ image: iso, inserted: true, write_protected: true });

    // A USB stick goes to the emulator's removable-media device (MediaTypes Floppy, USBStick).
    const usb = 'http://127.0.0.1:8080/images/usb.img';
    expect((await api(base, 'POST', `/v1/nodes/${node.uuid}/vmedia`, { device_type: 'disk', image_url: usb })).status).toBe(204);
    expect((await settled(node.uuid)).last_error).toBeNull();
    const listed = await api<Vmedia[]>(base, 'GET', `/v1/nodes/${node.uuid}/vmedia`);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      { media_types: ['CD', 'DVD'], inserted: true, image: iso },
      { media_types: ['Floppy', 'USBStick'], inserted: true, image: usb },
    ]);

    // The CD holds another image: the worker does not take it over and says so in last_error.
    expect((await api(base, 'POST', `/v1/nodes/${node.uuid}/vmedia`, { device_type: 'cdrom', image_url: 'http://127.0.0.1:8080/other.iso' })).status).toBe(204);
    const refused = await settled(node.uuid);
    expect(refused.last_error).toMatch(new RegExp(`^Could not attach device cdrom to node ${node.uuid}: No suitable virtual media device found`));
    expect(machine.virtualMedia().image).toBe(iso);

    expect((await api(base, 'DELETE', `/v1/nodes/${node.uuid}/vmedia?device_types=cdrom`)).status).toBe(204);
    expect((await settled(node.uuid)).last_error).toBeNull();
    expect(machine.virtualMedia()).toMatchObject({ image: null, inserted: false });
    expect((await api<Vmedia[]>(base, 'GET', `/v1/nodes/${node.uuid}/vmedia`)).body[1]).toEqual({ media_types: ['Floppy', 'USBStick'], inserted: true, image: usb });

    expect((await api(base, 'DELETE', `/v1/nodes/${node.uuid}/vmedia`)).status).toBe(204);
    await settled(node.uuid);
    expect((await api<Vmedia[]>(base, 'GET', `/v1/nodes/${node.uuid}/vmedia`)).body.map((d) => d.inserted)).toEqual([false, false]);
  });
});
