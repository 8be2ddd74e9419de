/**
 * Deployments that use the conductor's network boot environment (image cache and HTTP boot server):
 * - images the agent cannot take from their source — a qcow2 image (converted to raw by the cache with
 *   `qemu-img`) and a file:// image — are served to the agent at `<node>/<random>/instance.raw` with the checksum
 *   of the served bytes; the deployed disk holds the raw image; undeploy removes the served file;
 * - the `ramdisk` deploy interface boots the instance's kernel and ramdisk over iPXE (the per-MAC script
 *   and the files under the HTTP root) and writes nothing; undeploy removes the script.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { access, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpBootServer, type HttpBootServer } from '../src/boot/http/index.js';
import type { TestConductor } from '../src/conductor/conductor.test-support.js';
import type { NetworkBootEnvironment } from '../src/drivers/network-boot/environment.js';
import { ImageCache } from '../src/images/index.js';
import { BootConfig } from '../src/config/boot.js';
import { Value } from 'typebox/value';
import { AgentMachine, deployProfile, provision } from './support/agent-machine.js';
import { startDeployHarness, type DeployHarness } from './support/deploy-harness.js';
import { apiOk } from './support/http.js';
import { makeRawImage, readDeployedDisk } from './support/deploy-image.js';

const run = promisify(execFile);
const image = makeRawImage(12);

let dir: string;
let harness: DeployHarness;
let t: TestConductor;
let api: string;
let boot: HttpBootServer;
let httpRoot: string;
let files: Server;
let qcow2Sha256: string;
let filesUrl: string;
const machines: AgentMachine[] = [];

const call = <T = unknown>(method: string, url: string, body?: unknown) => apiOk<T>(api, method, url, body);


beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ingot-served-'));
  await writeFile(path.join(dir, 'image.raw'), image.bytes);
  await run('qemu-img', ['convert', '-f', 'raw', '-O', 'qcow2', path.join(dir, 'image.raw'), path.join(dir, 'image.qcow2')]).catch((err: unknown) => {
    throw new Error(`qemu-img is needed (apt-get install qemu-utils): ${String(err)}`);
  });
  const qcow2 = await readFile(path.join(dir, 'image.qcow2'));
  qcow2Sha256 = createHash('sha256').update(qcow2).digest('hex');
  files = createServer((req, res) => {
    const body = req.url === '/image.qcow2' ? qcow2 : ['/vmlinuz', '/initrd', '/deploy.kernel', '/deploy.initramfs'].includes(req.url ?? '') ? Buffer.from(`file ${req.url}\n`) : null;
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-length': body.length, 'last-modified': new Date(Date.now() - 60_000).toUTCString() });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;

  httpRoot = path.join(dir, 'httpboot');
  await mkdir(httpRoot, { recursive: true });
  boot = createHttpBootServer({ host: '127.0.0.1', port: 0, root: httpRoot });
  const httpPort = (await boot.start()).port;
  const config = { ...(Value.Default(BootConfig, {}) as BootConfig), http_root_dir: httpRoot, http_url: `http://127.0.0.1:${httpPort}`, tftp_server: '127.0.0.1', api_url: 'http://127.0.0.1:6385' };
  const images = await ImageCache.open({ dir: path.join(dir, 'cache'), maxBytes: 2 ** 30, ttlMs: 3_600_000, allowMd5: false, files: { allowed: [dir] } });
  const env: NetworkBootEnvironment = {
    config,
    dhcp: { updatePortOptions: async () => undefined, cleanPortOptions: async () => undefined },
    dhcpOptions: () => [],
    images,
  };
  harness = await startDeployHarness({}, { drivers: { boot: env }, images: { file_url_allowed_paths: [dir] } });
  ({ t, api } = harness);
}, 30_000);

afterAll(async () => {
  await Promise.allSettled(machines.map((m) => m.close()));
  await harness?.close();
  await boot?.close();
  await new Promise<void>((r) => (files ? files.close(() => r()) : r()));
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('images served by Ingot', () => {
  it.each([
    ['a qcow2 image over HTTP, converted to raw', () => ({ image_source: `${filesUrl}/image.qcow2`, image_disk_format: 'qcow2', image_os_hash_algo: 'sha256', image_os_hash_value: qcow2Sha256 }), 1],
    ['a file:// raw image', () => ({ image_source: `file://${dir}/image.raw`, image_os_hash_algo: 'sha256', image_os_hash_value: image.sha256 }), 2],
  ])('deploys %s', async (_what, instance, i) => {
    const p = deployProfile(40 + i);
    const node = await call<{ uuid: string }>('POST', '/v1/nodes', {
      name: `served-${i}`, driver: 'manual-management', boot_interface: 'fake', deploy_interface: 'direct', power_interface: 'fake', management_interface: 'fake',
      automated_clean: false, instance_info: instance(),
    });
    await call('POST', '/v1/ports', { node_uuid: node.uuid, address: p.nics[0]?.mac, pxe_enabled: true });
    const machine = new AgentMachine(node.uuid, p, path.join(dir, `disk-${i}.img`), api, (u) => t.store.nodes.get(u));
    machines.push(machine);
    await provision(api, t.store, node.uuid, 'manage');
    await provision(api, t.store, node.uuid, 'provide');
    const done = await provision(api, t.store, node.uuid, 'active', {}, 30_000);
    expect(done.provision_state, done.last_error ?? '').toBe('active');
    expect((await readDeployedDisk(machine.disk, image.bytes)).firstDifference).toBeNull();
    const history = await call<{ history: { event: string }[] }>('GET', `/v1/nodes/${node.uuid}/history`);
    expect(history.history.map((h) => h.event)).toContain(`image ${instance().image_source} (served by Ingot) handed to the agent`);
    // Served under a random 128-bit directory that only the agent was told: the node's own path is not it.
    const secrets = (await readdir(path.join(httpRoot, node.uuid))).filter((e) => /^[0-9a-f]{32}$/.test(e));
    expect(secrets).toHaveLength(1);
    const served = path.join(httpRoot, node.uuid, secrets[0] as string, 'instance.raw');
    await access(served);
    const base = String((t.conductor.context.boot as NetworkBootEnvironment).config.http_url);
    expect((await fetch(`${base}/${node.uuid}/instance.raw`)).status).toBe(404);
    const got = await fetch(`${base}/${node.uuid}/${secrets[0]}/instance.raw`, { headers: { Range: 'bytes=0-15' } });
    expect(got.status).toBe(206);
    await got.arrayBuffer();
    expect((await provision(api, t.store, node.uuid, 'deleted')).provision_state).toBe('available');
    await expect(access(served)).rejects.toThrow();
  }, 60_000);
});

describe('ramdisk deploy', () => {
  it('boots the instance kernel and ramdisk over iPXE and writes nothing', async () => {
    const p = deployProfile(50);
    const mac = p.nics[0]?.mac as string;
    const node = await call<{ uuid: string }>('POST', '/v1/nodes', {
      name: 'ramdisk-1', driver: 'manual-management', boot_interface: 'ipxe', deploy_interface: 'ramdisk', power_interface: 'fake', management_interface: 'fake',
      automated_clean: false, driver_info: { deploy_kernel: `${filesUrl}/deploy.kernel`, deploy_ramdisk: `${filesUrl}/deploy.initramfs` },
      instance_info: { kernel: `${filesUrl}/vmlinuz`, ramdisk: `${filesUrl}/initrd`, ramdisk_kernel_arguments: 'console=ttyS0 ingot.role=appliance' },
    });
    await call('POST', '/v1/ports', { node_uuid: node.uuid, address: mac, pxe_enabled: true });
    await provision(api, t.store, node.uuid, 'manage');
    await provision(api, t.store, node.uuid, 'provide');
    const done = await provision(api, t.store, node.uuid, 'active', {}, 30_000);
    expect(done.provision_state, done.last_error ?? '').toBe('active');
    const script = await readFile(path.join(httpRoot, 'pxelinux.cfg', mac.replace(/:/g, '-')), 'utf8');
    const base = (t.conductor.context.boot as NetworkBootEnvironment).config.http_url;
    expect(script).toContain(`kernel ${base}/${node.uuid}/kernel `);
    expect(script).toContain('console=ttyS0 ingot.role=appliance');
    expect(script).toContain(`initrd ${base}/${node.uuid}/ramdisk`);
    expect(await readFile(path.join(httpRoot, node.uuid, 'kernel'), 'utf8')).toBe('file /vmlinuz\n');
    expect((await provision(api, t.store, node.uuid, 'deleted')).provision_state).toBe('available');
    await expect(access(path.join(httpRoot, 'pxelinux.cfg', mac.replace(/:/g, '-')))).rejects.toThrow();
  }, 60_000);
});
