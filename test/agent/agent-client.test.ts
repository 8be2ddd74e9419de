/**
 * The conductor and the agent over real HTTP: Ingot's API and conductor on a loopback port, a simulated
 * machine's deploy agent looking its node up (getting the token) and heartbeating, and the conductor's
 * agent client commanding it — clean steps, an image written to the machine's disk file and checked
 * byte for byte, a failing checksum, the token refused when wrong, power off. Each test has a machine
 * and node of its own.
 */
import { createHash } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DeployAgent } from '../../src/agent/deploy-agent.js';
import { startSimulatedDeployAgent } from '../../src/agent/simulation.js';
import { buildApp } from '../../src/api/app.js';
import { testApiConfig } from '../../src/api/app.test-support.js';
import { simulatedProfile } from '../../src/bmc/profiles.js';
import { createNodeIn, startTestConductor, waitForNode, waitForState, type TestConductor } from '../../src/conductor/conductor.test-support.js';
import type { Node } from '../../src/domain/node.js';
import { AgentBusyError, AgentClient, commandErrorText } from '../../src/drivers/agent/client.js';
import type { AgentCommandResult, GetCleanStepsResult } from '../../src/protocol/agent/commands.js';
import { silentLogger } from '../../src/shared/logger.js';

const image = Buffer.alloc(3 * 1024 * 1024);
for (let i = 0; i < image.length; i += 4096) image.write(`block ${i / 4096} of the test image\n`, i);
const sha256 = createHash('sha256').update(image).digest('hex');

let t: TestConductor;
let api: FastifyInstance;
let images: Server;
let imagesUrl: string;
let dir: string;
const agents: DeployAgent[] = [];
/** Answers waiting for `/slow.img`: it is served only when the test lets it go. */
const held: (() => void)[] = [];
const client = new AgentClient({ timeoutMs: 10_000 });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ingot-agent-client-'));
  t = await startTestConductor();
  api = buildApp({ store: t.store, conductor: t.conductor.client, config: testApiConfig(), logger: silentLogger() });
  await api.listen({ host: '127.0.0.1', port: 0 });
  images = createServer((req, res) => {
    if (req.url === '/disk.img') res.writeHead(200, { 'content-length': image.length }).end(image);
    // Holds the write open until the test lets it go: the agent stays busy meanwhile.
    else if (req.url === '/slow.img') held.push(() => res.writeHead(200, { 'content-length': image.length }).end(image));
    else res.writeHead(404).end('no such image');
  });
  await new Promise<void>((r) => images.listen(0, '127.0.0.1', r));
  imagesUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
}, 30_000);

afterAll(async () => {
  await Promise.all(agents.map((a) => a.stop()));
  await api?.close();
  for (const release of held.splice(0)) release();
  await new Promise((r) => images?.close(r));
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

let machines = 0;

/**
 * A machine of its own for a test: a node inspected in band, waiting for its agent, and that machine's
 * deploy agent, which looked the node up (getting the token) and announced its URL.
 */
async function machine(): Promise<{ node: Node; agent: DeployAgent; disk: string }> {
  const i = ++machines;
  const profile = simulatedProfile(10 + i, 'client');
  const created = await createNodeIn(t, `agent-client-${i}`, 'manageable', { inspect_interface: 'agent' });
  await t.conductor.client.createPort({ node_id: created.id, address: profile.nics[0]?.mac ?? '', pxe_enabled: true });
  await t.conductor.client.doProvisionAction(created.uuid, 'inspect', {});
  await waitForState(t.store, created.uuid, 'inspect wait');
  const disk = join(dir, `sda-${i}.img`);
  const agent = await startSimulatedDeployAgent({
    profile, apiUrl: `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`, disks: { '/dev/sda': disk },
    lookupIntervalMs: 50, heartbeatMinIntervalMs: 100,
  });
  agents.push(agent);
  const node = await waitForNode(t.store, created.uuid, (n) => typeof n.driver_internal_info.agent_url === 'string', 10_000);
  return { node, agent, disk };
}

async function finished(node: Node, name: string): Promise<AgentCommandResult> {
  for (let i = 0; i < 200; i++) {
    const last = await client.lastCommand(node, name);
    if (last && last.command_status !== 'RUNNING') return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${name} did not finish`);
}

describe('the conductor’s agent client against the agent', () => {
  it('the agent looked the node up with the token and announced its URL', async () => {
    const { node, agent } = await machine();
    expect(node.driver_internal_info.agent_url).toBe(agent.callbackUrl);
    expect(node.driver_internal_info.agent_secret_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('reads the clean steps (sync command)', async () => {
    const { node } = await machine();
    const res = await client.command<GetCleanStepsResult>(node, 'clean.get_clean_steps', { node, ports: [] }, { wait: true });
    expect(res.command_status).toBe('SUCCEEDED');
    const steps = Object.values(res.command_result?.clean_steps ?? {}).flat().map((s) => [s.step, s.priority]);
    expect(steps).toEqual(expect.arrayContaining([['erase_devices_metadata', 99], ['erase_devices', 10]]));
  });

  it('writes an image to the disk (async command followed to its end), and the disk holds it', async () => {
    const { node, disk } = await machine();
    const started = await client.command(node, 'standby.prepare_image', {
      image_info: { id: 'test', urls: [`${imagesUrl}/disk.img`], os_hash_algo: 'sha256', os_hash_value: sha256, disk_format: 'raw' },
    });
    expect(started.command_status).toBe('RUNNING');
    const done = await finished(node, 'prepare_image');
    expect(done.command_status, JSON.stringify(done.command_error)).toBe('SUCCEEDED');
    // The disk file is as large as the machine's disk (sparse): read the image region only.
    const fd = openSync(disk, 'r');
    const head = Buffer.alloc(image.length);
    try {
      readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
    expect(createHash('sha256').update(head).digest('hex')).toBe(sha256);
  });

  it('a wrong checksum fails the command with the agent’s own words', async () => {
    const { node } = await machine();
    await client.command(node, 'standby.prepare_image', {
      image_info: { id: 'bad', urls: [`${imagesUrl}/disk.img`], os_hash_algo: 'sha256', os_hash_value: '0'.repeat(64), disk_format: 'raw' },
    });
    const failed = await finished(node, 'prepare_image');
    expect(failed.command_status).toBe('FAILED');
    expect(commandErrorText(failed)).toMatch(/checksum/i);
  });

  it('refuses a wrong token, and says when the agent is busy or gone', async () => {
    const { node } = await machine();
    const forged = { ...node, driver_internal_info: { ...node.driver_internal_info, agent_secret_token: 'z'.repeat(43) } };
    await expect(client.command(forged, 'standby.sync', {}, { wait: true })).rejects.toThrow(/refused standby.sync \(HTTP 401\)/);
    await client.command(node, 'standby.prepare_image', {
      image_info: { id: 'slow', urls: [`${imagesUrl}/slow.img`], os_hash_algo: 'sha256', os_hash_value: sha256, disk_format: 'raw' },
    });
    await vi.waitUntil(() => held.length === 1, { timeout: 10_000 });
    const busy = client.command(node, 'standby.prepare_image', { image_info: { id: 'again', urls: [`${imagesUrl}/disk.img`], os_hash_algo: 'sha256', os_hash_value: sha256, disk_format: 'raw' } });
    await expect(busy).rejects.toBeInstanceOf(AgentBusyError);
    held.shift()?.();
    expect((await finished(node, 'prepare_image')).command_status).toBe('SUCCEEDED');
    const gone = { ...node, driver_internal_info: { ...node.driver_internal_info, agent_url: 'http://127.0.0.1:9' } };
    await expect(client.command(gone, 'standby.sync', {}, { wait: true })).rejects.toThrow(/could not be reached for standby.sync/);
  });

  it('powers the machine off through the agent', async () => {
    const { node, agent } = await machine();
    const res = await client.command(node, 'standby.power_off', {}, { wait: false });
    expect(['RUNNING', 'SUCCEEDED']).toContain(res.command_status);
    expect(await agent.done).toBe('power_off');
  });
});
