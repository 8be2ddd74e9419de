/**
 * The conductor does not wait for the agent's next heartbeat to learn that a command finished: after a
 * step's command it looks at it for a few seconds, holding nothing, and continues the flow at once. Here
 * the agent heartbeats once after its lookup and then not again for a minute (its shortest gap), so the
 * deploy can only finish in time through that watch. And once a heartbeat took the command and the flow
 * moved on (the machine powered off), the watch asks the agent nothing more: a scripted agent holds the
 * watch's first look until the heartbeat took the command, and the watch's next look must not ask.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { waitForNode, waitForState } from '../src/conductor/conductor.test-support.js';
import type { Store } from '../src/db/store.js';
import { startDeployHarness } from './support/deploy-harness.js';
import { AgentMachine, deployProfile, settled, type WatchedNode } from './support/agent-machine.js';
import { makeRawImage, readDeployedDisk } from './support/deploy-image.js';
import { api, apiOk, waitNode } from './support/http.js';
import { startServer } from './support/server.js';

type NodeView = Record<string, unknown> & WatchedNode & { uuid: string; reservation: string | null; last_error: string | null };

const image = makeRawImage(4);
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

/** Resolves once node `uuid` is next read from `store` and the read has completed. */
function nextRead(store: Store, uuid: string): Promise<unknown> {
  const get = store.nodes.get.bind(store.nodes);
  return new Promise((resolve) => {
    const spy = vi.spyOn(store.nodes, 'get').mockImplementation((ident) => {
      const read = get(ident);
      if (ident === uuid) {
        spy.mockRestore();
        resolve(read);
      }
      return read;
    });
  });
}

describe('watching an agent command', () => {
  it('continues clean and deploy steps as soon as the agent finished them, without its next heartbeat', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ingot-command-watch-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const server: Server = createServer((_req, res) => res.writeHead(200, { 'content-length': image.bytes.length }).end(image.bytes));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
    const ingot = await startServer({ env: { INGOT_CONDUCTOR_SYNC_POWER_STATE_INTERVAL_S: '600' } });
    cleanups.push(() => ingot.dispose());
    const node = await apiOk<NodeView>(ingot.url, 'POST', '/v1/nodes', {
      name: 'watch-1', driver: 'manual-management', boot_interface: 'fake', deploy_interface: 'direct', power_interface: 'fake', management_interface: 'fake',
      instance_info: { image_source: `http://127.0.0.1:${(server.address() as AddressInfo).port}/image.raw`, image_os_hash_algo: 'sha256', image_os_hash_value: image.sha256 },
    });
    const profile = deployProfile(9);
    await apiOk(ingot.url, 'POST', '/v1/ports', { node_uuid: node.uuid, address: profile.nics[0]?.mac, pxe_enabled: true });
    const read = async (uuid: string) => (await api<NodeView>(ingot.url, 'GET', `/v1/nodes/${uuid}`)).body;
    const machine = new AgentMachine(node.uuid, profile, path.join(dir, 'disk.img'), ingot.url, read);
    machine.heartbeatMinIntervalMs = 60_000;
    cleanups.push(() => machine.close());

    await apiOk(ingot.url, 'PUT', `/v1/nodes/${node.uuid}/states/provision`, { target: 'manage' });
    await waitNode<NodeView>(ingot.url, node.uuid, settled);
    // Cleaning: erase_devices_metadata is an agent command; a heartbeat would come a minute later.
    await apiOk(ingot.url, 'PUT', `/v1/nodes/${node.uuid}/states/provision`, { target: 'provide' });
    const cleaned = await waitNode<NodeView>(ingot.url, node.uuid, settled, 20_000);
    expect(cleaned.provision_state, cleaned.last_error ?? '').toBe('available');
    // Deployment: write_image (standby.prepare_image) likewise.
    await apiOk(ingot.url, 'PUT', `/v1/nodes/${node.uuid}/states/provision`, { target: 'active' });
    const done = await waitNode<NodeView>(ingot.url, node.uuid, settled, 20_000);
    expect(done.provision_state, done.last_error ?? '').toBe('active');
    expect((await readDeployedDisk(machine.disk, image.bytes)).firstDifference).toBeNull();
    const history = await api<{ history: { event: string; duration: number | null }[] }>(ingot.url, 'GET', `/v1/nodes/${node.uuid}/history?detail=true`);
    const write = history.body.history.find((h) => h.event === 'deploy step deploy.write_image done');
    // The step ended when the watch saw the command finish (its next heartbeat was a minute away).
    expect(write?.duration, JSON.stringify(history.body.history)).toEqual(expect.any(Number));
  }, 60_000);

  it('asks the agent nothing more once a heartbeat took the command and the flow moved on', async () => {
    const harness = await startDeployHarness({});
    cleanups.push(() => harness.close());
    const { store, conductor } = harness.t;
    const mac = '52:54:00:de:77:01';
    // A scripted agent: the clean step's command runs until `finished`. The watch's first look at it is
    // held (answered later, with the command still running as it was when asked), so the heartbeat that
    // takes the command comes between the watch's looks whatever the machine's speed.
    let sent = false;
    let finished = false;
    let answerFirstLook: (() => void) | null = null;
    let firstLookSeen!: () => void;
    const firstLook = new Promise<void>((resolve) => (firstLookSeen = resolve));
    let firstLookAbandoned!: () => void;
    const abandoned = new Promise<never>((_, reject) => (firstLookAbandoned = () => reject(new Error('the watch gave up its first look (5 s) before the flow moved on'))));
    abandoned.catch(() => undefined);
    const agent = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const answer = (status: 'RUNNING' | 'SUCCEEDED') => {
          const result = { id: 'c1', command_name: 'execute_clean_step', command_params: {}, command_status: status, command_result: status === 'SUCCEEDED' ? { clean_result: null } : null, command_error: null };
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(req.method === 'GET' ? { commands: [result] } : result));
        };
        if (req.method === 'POST' && (JSON.parse(body) as { name?: string }).name === 'clean.execute_clean_step') sent = true;
        if (req.method === 'GET' && sent && !finished && !answerFirstLook) {
          answerFirstLook = () => answer('RUNNING');
          res.once('close', () => res.writableEnded || firstLookAbandoned());
          firstLookSeen();
          return;
        }
        answer(finished ? 'SUCCEEDED' : 'RUNNING');
      });
    });
    await new Promise<void>((r) => agent.listen(0, '127.0.0.1', r));
    cleanups.push(async () => {
      agent.closeAllConnections();
      await new Promise<void>((r) => agent.close(() => r()));
    });
    const callbackUrl = `http://127.0.0.1:${(agent.address() as AddressInfo).port}`;
    const node = await apiOk<NodeView>(harness.api, 'POST', '/v1/nodes', {
      name: 'watch-2', driver: 'manual-management', boot_interface: 'fake', deploy_interface: 'direct', power_interface: 'fake', management_interface: 'fake',
    });
    await apiOk(harness.api, 'POST', '/v1/ports', { node_uuid: node.uuid, address: mac, pxe_enabled: true });
    await apiOk(harness.api, 'PUT', `/v1/nodes/${node.uuid}/states/provision`, { target: 'manage' });
    await waitForState(store, node.uuid, 'manageable');
    await apiOk(harness.api, 'PUT', `/v1/nodes/${node.uuid}/states/provision`, { target: 'provide' });
    await waitForState(store, node.uuid, 'clean wait');
    const { config } = await apiOk<{ config: { agent_token: string } }>(harness.api, 'GET', `/v1/lookup?addresses=${mac}`);
    const beat = () => apiOk(harness.api, 'POST', `/v1/heartbeat/${node.uuid}`, { callback_url: callbackUrl, agent_token: config.agent_token });
    // The first heartbeat runs the clean step: its command is sent and watched.
    await beat();
    await firstLook;
    // While the watch waits for its answer, the command ends and a heartbeat takes it.
    finished = true;
    await beat();
    const done = await waitForNode(store, node.uuid, (n) => n.provision_state === 'available' && n.reservation === null);
    expect(done.power_state, 'cleaning ended with the machine off').toBe('power off');
    // The watch gets its answer (running) and looks again: at a node whose flow moved on.
    const client = conductor.context.agent.client;
    const asked = [vi.spyOn(client, 'lastCommand'), vi.spyOn(client, 'commands')];
    const looked = nextRead(store, node.uuid);
    answerFirstLook!();
    await Promise.race([looked, abandoned]);
    await new Promise((r) => setImmediate(r)); // what the watch does on what it read
    for (const spy of asked) expect(spy, 'the watch asked the agent after the flow moved on').not.toHaveBeenCalled();
  }, 30_000);
});
