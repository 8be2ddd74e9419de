/**
 * The conductor does not wait for the agent's next heartbeat to learn that a command finished: after a
 * step's command it looks at it for a few seconds, holding nothing, and continues the flow at once. Here
 * the agent heartbeats once after its lookup and then not again for a minute (its shortest gap), so the
 * deploy can only finish in time through that watch. And once a heartbeat took the command and the flow
 * moved on (the machine powered off), the watch asks the agent nothing more: a scripted agent that stops
 * answering then (as a machine that is off) must see no request.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { waitForState } from '../src/conductor/conductor.test-support.js';
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
    const mac = '52:54:00:de:77:01';
    // A scripted agent: the clean step's command runs until `finished`; once `gone`, requests get no answer.
    let finished = false;
    let gone = false;
    let unanswered = 0;
    const agent = createServer((req, res) => {
      if (gone) {
        unanswered++;
        return;
      }
      const result = { id: 'c1', command_name: 'execute_clean_step', command_params: {}, command_status: finished ? 'SUCCEEDED' : 'RUNNING', command_result: finished ? { clean_result: null } : null, command_error: null };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(req.method === 'GET' ? { commands: [result] } : result));
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
    await waitForState(harness.t.store, node.uuid, 'manageable');
    await apiOk(harness.api, 'PUT', `/v1/nodes/${node.uuid}/states/provision`, { target: 'provide' });
    await waitForState(harness.t.store, node.uuid, 'clean wait');
    const { config } = await apiOk<{ config: { agent_token: string } }>(harness.api, 'GET', `/v1/lookup?addresses=${mac}`);
    const beat = () => apiOk(harness.api, 'POST', `/v1/heartbeat/${node.uuid}`, { callback_url: callbackUrl, agent_token: config.agent_token });
    // The first heartbeat runs the clean step: its command is sent and watched.
    await beat();
    await waitForState(harness.t.store, node.uuid, 'clean wait');
    // Between the watch's looks (0.1, 0.3, 0.7, 1.5, 3 s after the command) the command ends and a heartbeat takes it.
    await new Promise((r) => setTimeout(r, 800));
    finished = true;
    await beat();
    const done = await waitForState(harness.t.store, node.uuid, 'available');
    expect(done.power_state, 'cleaning ended with the machine off').toBe('power off');
    gone = true;
    // The watch's remaining looks come and go.
    await new Promise((r) => setTimeout(r, 3000));
    expect(unanswered, 'requests sent to the agent after the flow moved on').toBe(0);
  }, 30_000);
});
