/**
 * The `direct` deploy and in-band cleaning, driven by a real deploy agent over HTTP: a conductor and the
 * API on loopback, a node whose "machine" runs the simulated deploy agent on its disk file whenever the
 * node waits for one (as a network boot would start it), and an image server. Deploy writes the image
 * and a config drive rendered from JSON, undeploy erases the disk metadata; the failures (checksum
 * mismatch, image URL 404, image larger than the disk, an agent that stops heartbeating) end in
 * `deploy failed` with a last_error saying why, and nothing is marked active that was not written.
 */
import { mkdir, mkdtemp, readdir, rm, truncate } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestConductor } from '../src/conductor/conductor.test-support.js';
import type { Node } from '../src/domain/node.js';
import { AgentMachine, deployProfile, provision } from './support/agent-machine.js';
import { startDeployHarness, type DeployHarness } from './support/deploy-harness.js';
import { apiOk } from './support/http.js';
import { makeRawImage, metadataErased, readDeployedDisk } from './support/deploy-image.js';

const image = makeRawImage(24);

let harness: DeployHarness;
let t: TestConductor;
let api: string;
let images: Server;
let imageUrl: string;
let dir: string;
const machines: AgentMachine[] = [];

const call = <T = unknown>(method: string, url: string, body?: unknown) => apiOk<T>(api, method, url, body);


async function enroll(i: number): Promise<{ uuid: string; machine: AgentMachine }> {
  const p = deployProfile(i);
  const node = await call<{ uuid: string }>('POST', '/v1/nodes', {
    name: `deploy-${i}`, driver: 'manual-management', boot_interface: 'fake', deploy_interface: 'direct', power_interface: 'fake', management_interface: 'fake',
  });
  await call('POST', '/v1/ports', { node_uuid: node.uuid, address: p.nics[0]?.mac, pxe_enabled: true });
  const machine = new AgentMachine(node.uuid, p, path.join(dir, `disk-${i}.img`), api, (u) => t.store.nodes.get(u));
  machines.push(machine);
  await provision(api, t.store, node.uuid, 'manage', {}, 10_000);
  const n = await provision(api, t.store, node.uuid, 'provide', {}, 20_000);
  expect(n.provision_state, n.last_error ?? '').toBe('available');
  return { uuid: node.uuid, machine };
}

async function deploy(uuid: string, instance: Record<string, unknown>, configdrive?: unknown): Promise<Node> {
  await call('PATCH', `/v1/nodes/${uuid}`, Object.entries(instance).map(([k, v]) => ({ op: 'add', path: `/instance_info/${k}`, value: v })));
  return provision(api, t.store, uuid, 'active', configdrive ? { configdrive } : {});
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ingot-deploy-flow-'));
  images = createServer((req, res) => {
    if (req.url === '/image.raw') {
      res.writeHead(200, { 'content-length': image.bytes.length });
      res.end(image.bytes);
    } else if (req.url === '/slow.raw') {
      // 64 KiB every 10 ms: a write that takes seconds, for an agent to die in the middle of.
      res.writeHead(200, { 'content-length': image.bytes.length });
      let at = 0;
      const timer = setInterval(() => {
        res.write(image.bytes.subarray(at, (at += 65536)));
        if (at >= image.bytes.length) {
          clearInterval(timer);
          res.end();
        }
      }, 10);
      res.on('close', () => clearInterval(timer));
    } else if (req.url === '/huge.raw') {
      // Announces more than the 8 GiB disk holds; the agent must refuse before writing.
      res.writeHead(200, { 'content-length': 9 * 2 ** 30 });
      res.write(Buffer.alloc(65536));
      req.socket.on('close', () => res.destroy());
    } else {
      res.writeHead(404).end('not here');
    }
  });
  await new Promise<void>((r) => images.listen(0, '127.0.0.1', r));
  imageUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
  harness = await startDeployHarness(
    { deploy_callback_timeout_s: 4, clean_callback_timeout_s: 20, check_provision_state_interval_s: 0.5, deploy_logs_dir: path.join(dir, 'logs') },
    { periodics: true },
  );
  ({ t, api } = harness);
}, 30_000);

afterAll(async () => {
  await Promise.allSettled(machines.map((m) => m.close()));
  await harness?.close();
  await new Promise<void>((r) => (images ? images.close(() => r()) : r()));
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('direct deploy through the agent', () => {
  it('writes the image and a config drive, goes active, and undeploy erases the metadata', async () => {
    const { uuid, machine } = await enroll(1);
    const node = await deploy(uuid, { image_source: `${imageUrl}/image.raw`, image_os_hash_algo: 'sha256', image_os_hash_value: image.sha256 }, {
      meta_data: { public_keys: { default: 'ssh-ed25519 AAAA test' } }, user_data: '#cloud-config\n',
    });
    expect(node.provision_state, node.last_error ?? '').toBe('active');
    expect(node.power_state).toBe('power on');
    expect(node.driver_internal_info).toMatchObject({ is_whole_disk_image: true });
    expect(node.driver_internal_info).not.toHaveProperty('agent_secret_token');
    const disk = await readDeployedDisk(machine.disk, image.bytes);
    expect(disk.firstDifference).toBeNull();
    expect(disk.configDriveLabel).toBe('config-2');
    expect(disk.metaData).toMatchObject({ uuid, name: 'deploy-1', hostname: 'deploy-1', public_keys: { default: 'ssh-ed25519 AAAA test' } });

    const history = await call<{ history: { event: string; event_type: string }[] }>('GET', `/v1/nodes/${uuid}/history?detail=true`);
    const steps = history.history.filter((h) => h.event_type === 'deploy' && h.event.startsWith('deploy step')).map((h) => h.event);
    expect(steps).toEqual([
      'deploy step deploy.deploy done', 'deploy step deploy.write_image done', 'deploy step deploy.prepare_instance_boot done',
      'deploy step deploy.tear_down_agent done', 'deploy step deploy.switch_to_tenant_network done', 'deploy step deploy.boot_instance done',
    ]);

    // Rebuild: the agent boots again and rewrites the disk (a blanked disk proves it wrote).
    await truncate(machine.disk, 0);
    await truncate(machine.disk, 8 * 2 ** 30);
    const rebuilt = await provision(api, t.store, uuid, 'rebuild', {}, 30_000);
    expect(rebuilt.provision_state, rebuilt.last_error ?? '').toBe('active');
    expect((await readDeployedDisk(machine.disk, image.bytes)).firstDifference).toBeNull();

    const after = await provision(api, t.store, uuid, 'deleted', {}, 20_000);
    expect(after.provision_state, after.last_error ?? '').toBe('available');
    expect(after.instance_info).toEqual({});
    expect(await metadataErased(machine.disk)).toBe(true);
  }, 60_000);

  it('fails a checksum mismatch, a missing image and an image larger than the disk, saying why, with the agent logs', async () => {
    const { uuid } = await enroll(2);
    const bad = await deploy(uuid, { image_source: `${imageUrl}/image.raw`, image_os_hash_algo: 'sha256', image_os_hash_value: 'a'.repeat(64) });
    expect(bad.provision_state).toBe('deploy failed');
    expect(bad.last_error).toMatch(/write_image.*checksum/is);
    expect(bad.last_error).toMatch(/Agent logs: .*\.tar\.gz/);
    // The failure forgot the agent (its logs were fetched first): its token opens nothing any more.
    expect(bad.driver_internal_info).not.toHaveProperty('agent_secret_token');
    expect(bad.driver_internal_info).not.toHaveProperty('agent_url');
    expect((await readdir(path.join(dir, 'logs'))).some((f) => f.startsWith(uuid))).toBe(true);

    const missing = await deploy(uuid, { image_source: `${imageUrl}/nothing.raw` });
    expect(missing.provision_state).toBe('deploy failed');
    expect(missing.last_error).toMatch(/404/);

    const huge = await deploy(uuid, { image_source: `${imageUrl}/huge.raw`, image_os_hash_value: 'b'.repeat(64), image_os_hash_algo: 'sha256' });
    expect(huge.provision_state).toBe('deploy failed');
    expect(huge.last_error).toMatch(/larger than the disk/);
  }, 90_000);

  it('fails cleaning with the agent’s own error when its clean step fails', async () => {
    const { uuid, machine } = await enroll(4);
    // The disk cannot be opened any more: erase_devices_metadata fails at once.
    await rm(machine.disk, { force: true });
    await mkdir(machine.disk);
    await provision(api, t.store, uuid, 'manage', {}, 10_000);
    const failed = await provision(api, t.store, uuid, 'provide', {}, 20_000);
    expect(failed.provision_state).toBe('clean failed');
    expect(failed.last_error).toMatch(/The agent failed clean step deploy\.erase_devices_metadata: .*(EISDIR|directory)/s);
    expect(failed.driver_internal_info).not.toHaveProperty('agent_secret_token');
  }, 60_000);

  it('fails a deploy whose agent stops heartbeating once the callback timeout passes', async () => {
    const { uuid, machine } = await enroll(3);
    machine.stall = true;
    const node = await deploy(uuid, { image_source: `${imageUrl}/slow.raw`, image_os_hash_algo: 'sha256', image_os_hash_value: image.sha256 });
    expect(node.provision_state).toBe('deploy failed');
    expect(node.last_error).toMatch(/agent stopped heartbeating during deploy\.write_image \(last heartbeat .*\)/);
    expect(node.driver_internal_info).not.toHaveProperty('agent_secret_token');
  }, 60_000);
});
