/**
 * Fast track across a whole life, on emulated machines: 4 simulated machines behind `ingot bmc` (Redfish
 * and IPMI) and `ingot serve` with `conductor.fast_track` on and its HTTP boot server. Each network boot
 * is followed as iPXE would (per-MAC script, kernel and ramdisk from Ingot's boot server) and runs the
 * agent the kernel parameters name; that agent lives until its machine is powered off or boots again.
 * Inspection boots the ramdisk once; the machine stays on, its agent looks the node up in `manageable`
 * and heartbeats; cleaning and the deployment then use that same agent (the same callback URL), with no
 * further ramdisk boot, and the image lands on every disk. One node says `fast_track: false` in its
 * driver_info and goes the long way: powered off after inspection, a ramdisk boot for cleaning and one
 * for the deployment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driverInfoFor } from '../../src/bmc/inventory.js';
import { all, settle, startBootFleet, type BootFleet, type FleetNodeDetail } from '../support/fleet.js';
import { makeRawImage, readDeployedDisk } from '../support/deploy-image.js';
import { apiOk } from '../support/http.js';

const COUNT = 4;
/** The node that turns fast track off for itself. */
const SLOW = 'm-3';
const image = makeRawImage(8);
const machines = Array.from({ length: COUNT }, (_, i) => ({ name: `m-${i}`, backend: 'simulated' }));

type NodeView = FleetNodeDetail;

let fleet: BootFleet;

beforeAll(async () => {
  const files = { '/image.raw': image.bytes, '/deploy.kernel': Buffer.from('simulated kernel\n'), '/deploy.initramfs': Buffer.from('simulated ramdisk\n') };
  fleet = await startBootFleet(machines, files, { INGOT_CONDUCTOR_FAST_TRACK: 'true' });
}, 60_000);

afterAll(async () => {
  await fleet?.stop();
});

async function events(uuid: string): Promise<string[]> {
  const { history } = await apiOk<{ history: { event: string }[] }>(fleet.ingot.url, 'GET', `/v1/nodes/${uuid}/history?detail=true&limit=1000`);
  return history.map((h) => h.event);
}

/** Network boots Ingot started for `kind` (its history line when it prepares a ramdisk and boots the machine). */
const boots = (evs: string[], kind: string) => evs.filter((e) => e.startsWith(`${kind} ramdisk prepared by the ipxe boot interface`)).length;

const put = (uuid: string, target: string, extra: Record<string, unknown> = {}) => apiOk(fleet.ingot.url, 'PUT', `/v1/nodes/${uuid}/states/provision`, { target, ...extra });

describe('fast track on an emulated fleet', () => {
  it('inspects, cleans and deploys each machine with one ramdisk boot; a node with fast_track false boots three times', async () => {
    const { ingot, bmc, files } = fleet;
    const filesUrl = files.url;
    const uuids = new Map<string, string>();
    await all(bmc.inventory, async (e) => {
      const driver = Number(e.name.slice(2)) % 2 === 0 ? 'redfish' : 'ipmi';
      const node = await apiOk<NodeView>(ingot.url, 'POST', '/v1/nodes', {
        name: e.name, driver, inspect_interface: 'agent',
        driver_info: {
          ...driverInfoFor(e, driver), deploy_kernel: `${filesUrl}/deploy.kernel`, deploy_ramdisk: `${filesUrl}/deploy.initramfs`,
          ...(e.name === SLOW ? { fast_track: false } : {}),
        },
        instance_info: { image_source: `${filesUrl}/image.raw`, image_os_hash_algo: 'sha256', image_os_hash_value: image.sha256 },
      });
      uuids.set(e.name, node.uuid);
      await apiOk(ingot.url, 'POST', '/v1/ports', { node_uuid: node.uuid, address: e.macs[0], pxe_enabled: true });
      await put(node.uuid, 'manage');
    });
    await settle<NodeView>(ingot.url, (n) => n.provision_state === 'manageable', 60_000);

    await all([...uuids.values()], (u) => put(u, 'inspect'));
    // A fast-tracked machine stays on; its agent looks the node up in manageable and heartbeats.
    let list = await settle<NodeView>(ingot.url, (n) => n.provision_state === 'manageable' && (n.name === SLOW || typeof n.driver_internal_info.agent_url === 'string'), 60_000);
    const agentUrls = new Map<string, unknown>();
    for (const n of list) {
      expect(n.last_error, n.name).toBeNull();
      expect(n.power_state, n.name).toBe(n.name === SLOW ? 'power off' : 'power on');
      agentUrls.set(n.name, n.driver_internal_info.agent_url);
    }
    expect(agentUrls.get(SLOW)).toBeUndefined();

    await all([...uuids.values()], (u) => put(u, 'provide'));
    list = await settle<NodeView>(ingot.url, (n) => ['available', 'clean failed'].includes(n.provision_state), 60_000);
    for (const n of list) {
      expect(n.provision_state, `${n.name}: ${n.last_error}`).toBe('available');
      const evs = await events(n.uuid);
      if (n.name === SLOW) {
        expect(boots(evs, 'clean'), n.name).toBe(1);
        expect(n.power_state).toBe('power off');
        continue;
      }
      expect(boots(evs, 'clean'), `${n.name}: ${evs.join('; ')}`).toBe(0);
      expect(evs).toContain(`fast track: the running agent at ${String(agentUrls.get(n.name))} takes the clean steps; no ramdisk boot`);
      expect(evs).toContain('clean step deploy.erase_devices_metadata done');
      expect(n.driver_internal_info.agent_url, `${n.name}: the same agent`).toBe(agentUrls.get(n.name));
      expect(n.power_state).toBe('power on');
    }

    await all([...uuids].map(([name, u]) => [name, u] as const), ([name, u]) => put(u, 'active', { configdrive: { meta_data: { hostname: `${name}.fast` } } }));
    list = await settle<NodeView>(ingot.url, (n) => ['active', 'deploy failed'].includes(n.provision_state), 60_000);
    const disks = new Map(bmc.inventory.map((e) => [e.name, e.disk]));
    for (const n of list) {
      expect(n.provision_state, `${n.name}: ${n.last_error}`).toBe('active');
      const evs = await events(n.uuid);
      expect(boots(evs, 'inspect'), n.name).toBe(1);
      expect(boots(evs, 'deploy'), n.name).toBe(n.name === SLOW ? 1 : 0);
      if (n.name !== SLOW) expect(evs).toContain(`fast track: the running agent at ${String(agentUrls.get(n.name))} takes the deploy steps; no ramdisk boot`);
      const disk = await readDeployedDisk(disks.get(n.name) as string, image.bytes);
      expect(disk.firstDifference, n.name).toBeNull();
      expect(disk.metaData, n.name).toMatchObject({ uuid: n.uuid, hostname: `${n.name}.fast` });
      expect(n.power_state).toBe('power on');
    }
  }, 180_000);
});
