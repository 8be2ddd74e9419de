/**
 * Deployment of an emulated fleet end to end: 50 simulated machines behind `ingot bmc` (half Redfish,
 * half IPMI) and `ingot serve` with its HTTP boot server. Each network boot is followed as iPXE would:
 * the machine fetches its per-MAC iPXE script, the deploy kernel and ramdisk from Ingot's boot server,
 * and runs the agent its kernel parameters name. Provide cleans them through the agent; deploy writes a
 * real raw image with a config drive rendered from JSON onto every disk file in parallel (one node driven
 * by the real `baremetal` CLI); afterwards each disk holds the image byte for byte and a config-2 drive
 * with that node's metadata. A node given a wrong checksum ends `deploy failed` saying so, and nothing
 * of it is marked active. Undeploy cleans them back to `available` with the disk metadata erased.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driverInfoFor } from '../../src/bmc/inventory.js';
import { baremetalOk, requireClients } from '../support/openstack-clients.js';
import { all, settle, startBootFleet, type BootFleet, type FleetNodeDetail } from '../support/fleet.js';
import { makeRawImage, metadataErased, readDeployedDisk } from '../support/deploy-image.js';
import { api, apiOk } from '../support/http.js';

const COUNT = 50;
const BAD = 'm-07';
const CLI = 'm-03';
const image = makeRawImage(16);
const ramdisk = Buffer.from('simulated deploy ramdisk\n');
const kernel = Buffer.from('simulated deploy kernel\n');
const machines = Array.from({ length: COUNT }, (_, i) => ({ name: `m-${String(i).padStart(2, '0')}`, backend: 'simulated' }));

type NodeView = FleetNodeDetail;

let fleet: BootFleet;

beforeAll(async () => {
  requireClients();
  // The files' Last-Modified lets the conductor's cache keep the kernel and ramdisk between boots.
  fleet = await startBootFleet(machines, { '/image.raw': image.bytes, '/deploy.kernel': kernel, '/deploy.initramfs': ramdisk }, {
    INGOT_CONDUCTOR_DEPLOY_CALLBACK_TIMEOUT_S: '120',
    INGOT_CONDUCTOR_CLEAN_CALLBACK_TIMEOUT_S: '120',
  });
}, 60_000);

afterAll(async () => {
  await fleet?.stop();
});


const STABLE = ['available', 'active', 'manageable', 'deploy failed', 'clean failed'];

describe('deployment of an emulated fleet through the public API', () => {
  it('provides, deploys 50 machines at once with a config drive, and undeploys them', async () => {
    const { ingot, bmc, files } = fleet;
    const filesUrl = files.url;
    const uuids = new Map<string, string>();
    await all(bmc.inventory, async (e) => {
      const i = Number(e.name.slice(2));
      const driver = i % 2 === 0 ? 'redfish' : 'ipmi';
      const node = await apiOk<NodeView>(ingot.url, 'POST', '/v1/nodes', {
        name: e.name, driver,
        driver_info: { ...driverInfoFor(e, driver), deploy_kernel: `${filesUrl}/deploy.kernel`, deploy_ramdisk: `${filesUrl}/deploy.initramfs` },
        instance_info: { image_source: `${filesUrl}/image.raw`, image_os_hash_algo: 'sha256', image_os_hash_value: e.name === BAD ? createHash('sha256').update('other').digest('hex') : image.sha256 },
      });
      uuids.set(e.name, node.uuid);
      await apiOk(ingot.url, 'POST', '/v1/ports', { node_uuid: node.uuid, address: e.macs[0], pxe_enabled: true });
      await apiOk(ingot.url, 'PUT', `/v1/nodes/${node.uuid}/states/provision`, { target: 'manage' });
    });
    await settle<NodeView>(ingot.url, (n) => n.provision_state === 'manageable', 60_000);

    await all([...uuids.values()], (u) => apiOk(ingot.url, 'PUT', `/v1/nodes/${u}/states/provision`, { target: 'provide' }));
    let list = await settle<NodeView>(ingot.url, (n) => STABLE.includes(n.provision_state), 180_000);
    expect(list.filter((n) => n.provision_state !== 'available').map((n) => `${n.name}: ${n.last_error}`)).toEqual([]);

    const configdrive = (name: string) => ({ meta_data: { hostname: `${name}.rack.example`, public_keys: { ops: 'ssh-ed25519 AAAAC3 ops@example' } }, user_data: '#cloud-config\nruncmd: [echo ingot]\n' });
    await all([...uuids].filter(([name]) => name !== CLI), ([name, u]) => apiOk(ingot.url, 'PUT', `/v1/nodes/${u}/states/provision`, { target: 'active', configdrive: configdrive(name) }));
    await baremetalOk(ingot.url, ['node', 'deploy', CLI, '--config-drive', JSON.stringify(configdrive(CLI)), '--wait', '240']);
    list = await settle<NodeView>(ingot.url, (n) => STABLE.includes(n.provision_state), 240_000);

    const bad = list.find((n) => n.name === BAD) as NodeView;
    expect(bad.provision_state).toBe('deploy failed');
    expect(bad.last_error).toMatch(/checksum/i);
    expect(list.filter((n) => n.name !== BAD && n.provision_state !== 'active').map((n) => `${n.name}: ${n.provision_state} ${n.last_error}`)).toEqual([]);
    // One download of each image by the conductor's cache (the kernel and ramdisk) — the image itself is fetched by each agent.
    expect(files.downloads.get('/deploy.kernel')).toBe(1);
    expect(files.downloads.get('/image.raw')).toBeGreaterThanOrEqual(COUNT - 1);

    const disks = new Map(bmc.inventory.map((e) => [e.name, e.disk]));
    for (const n of list) {
      if (n.name === BAD) continue;
      const disk = await readDeployedDisk(disks.get(n.name) as string, image.bytes);
      expect(disk.firstDifference, n.name).toBeNull();
      expect(disk.configDriveLabel, n.name).toBe('config-2');
      expect(disk.metaData, n.name).toMatchObject({ uuid: n.uuid, name: n.name, hostname: `${n.name}.rack.example` });
      expect(n.power_state, n.name).toBe('power on');
    }
    const history = await apiOk<{ history: { event: string; duration: number | null }[] }>(ingot.url, 'GET', `/v1/nodes/${uuids.get('m-10')}/history?detail=true`);
    const write = history.history.find((h) => h.event === 'deploy step deploy.write_image done');
    expect(write?.duration, JSON.stringify(history.history)).toEqual(expect.any(Number));

    await all([...uuids.values()], (u) => apiOk(ingot.url, 'PUT', `/v1/nodes/${u}/states/provision`, { target: 'deleted' }));
    list = await settle<NodeView>(ingot.url, (n) => STABLE.includes(n.provision_state), 180_000);
    expect(list.filter((n) => n.provision_state !== 'available').map((n) => `${n.name}: ${n.provision_state} ${n.last_error}`)).toEqual([]);
    for (const n of list) expect(await metadataErased(disks.get(n.name) as string), n.name).toBe(true);
    const after = await api<NodeView>(ingot.url, 'GET', `/v1/nodes/${uuids.get('m-10')}`);
    expect(after.body.driver_internal_info).not.toHaveProperty('agent_secret_token');
  }, 600_000);
});
