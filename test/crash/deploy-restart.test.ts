/**
 * A conductor killed with SIGKILL while the agent writes the image: the agent keeps writing and
 * heartbeating; `ingot serve`, started again on the same data directory, finds the node still in
 * `wait call-back`, takes the agent's next heartbeat, sees the write finished and completes the deploy.
 * The node ends `active` with the image on the disk byte for byte — nothing is lost, nothing marked
 * active that was not written. (Work the conductor itself was doing under the node lock when it died
 * fails instead: test/crash/kill9.test.ts.) Runs on SQLite and on PostgreSQL. The agent calls Ingot
 * through a fixed address of the test process (test/support/tcp-front.ts), as it would call a conductor
 * behind a stable address, while the restarted `ingot serve` listens on a new port.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentMachine, deployProfile, settled, type WatchedNode } from '../support/agent-machine.js';
import { makeRawImage, readDeployedDisk } from '../support/deploy-image.js';
import { api, apiOk, waitNode } from '../support/http.js';
import { startServer, type RunningServer } from '../support/server.js';
import { DIALECTS } from '../support/stores.js';
import { startTcpFront } from '../support/tcp-front.js';

type NodeView = Record<string, unknown> & WatchedNode & { uuid: string; reservation: string | null; last_error: string | null; deploy_step: Record<string, unknown> };

const image = makeRawImage(48);
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

/** Serves the image slowly (64 KiB every 8 ms, about 8 MB/s), counting the bytes sent. */
async function slowImageServer(): Promise<{ url: string; sent: () => number }> {
  let sent = 0;
  const server: Server = createServer((req, res) => {
    res.writeHead(200, { 'content-length': image.bytes.length });
    let at = 0;
    const timer = setInterval(() => {
      const chunk = image.bytes.subarray(at, at + 65536);
      at += chunk.length;
      sent += chunk.length;
      if (chunk.length > 0) res.write(chunk);
      if (at >= image.bytes.length) {
        clearInterval(timer);
        res.end();
      }
    }, 8);
    req.socket.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/image.raw`, sent: () => sent };
}

describe.each(DIALECTS)('conductor restart while the agent writes, on %s', (dialect) => {
  it('kill -9 mid-write, restart: the deploy completes with the image on disk', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ingot-deploy-restart-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const images = await slowImageServer();
    const ingot: RunningServer = await startServer({
      dialect,
      env: {
        INGOT_CONDUCTOR_AGENT_HEARTBEAT_TIMEOUT_S: '2',
        INGOT_CONDUCTOR_DEPLOY_CALLBACK_TIMEOUT_S: '30',
        INGOT_CONDUCTOR_CHECK_PROVISION_STATE_INTERVAL_S: '1',
        INGOT_CONDUCTOR_SYNC_POWER_STATE_INTERVAL_S: '600',
      },
    });
    cleanups.push(() => ingot.dispose());
    const front = await startTcpFront(() => ingot.url);
    cleanups.push(() => front.close());
    const node = await apiOk<NodeView>(ingot.url, 'POST', '/v1/nodes', {
      name: 'restart-1', driver: 'manual-management', boot_interface: 'fake', deploy_interface: 'direct', power_interface: 'fake', management_interface: 'fake',
      instance_info: { image_source: images.url, image_os_hash_algo: 'sha256', image_os_hash_value: image.sha256 },
    });
    const profile = deployProfile(7);
    await apiOk(ingot.url, 'POST', '/v1/ports', { node_uuid: node.uuid, address: profile.nics[0]?.mac, pxe_enabled: true });
    const read = async (uuid: string) => (await api<NodeView>(ingot.url, 'GET', `/v1/nodes/${uuid}`)).body;
    const machine = new AgentMachine(node.uuid, profile, path.join(dir, 'disk.img'), front.url, read);
    cleanups.push(() => machine.close());

    await apiOk(ingot.url, 'PUT', `/v1/nodes/${node.uuid}/states/provision`, { target: 'manage' });
    await waitNode<NodeView>(ingot.url, node.uuid, settled);
    await apiOk(ingot.url, 'PUT', `/v1/nodes/${node.uuid}/states/provision`, { target: 'provide' });
    expect((await waitNode<NodeView>(ingot.url, node.uuid, settled)).provision_state).toBe('available');

    await apiOk(ingot.url, 'PUT', `/v1/nodes/${node.uuid}/states/provision`, { target: 'active' });
    const deadline = Date.now() + 30_000;
    while (images.sent() < image.bytes.length / 4) {
      if (Date.now() > deadline) throw new Error(`the agent did not start writing (sent ${images.sent()} bytes)`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const midWrite = await read(node.uuid);
    expect(midWrite.provision_state).toBe('wait call-back');
    expect(midWrite.deploy_step.step).toBe('write_image');
    await ingot.kill9();
    expect(images.sent()).toBeLessThan(image.bytes.length);
    await ingot.restart();

    const done = await waitNode<NodeView>(ingot.url, node.uuid, settled, 60_000);
    expect(done.provision_state, done.last_error ?? '').toBe('active');
    expect((await readDeployedDisk(machine.disk, image.bytes)).firstDifference).toBeNull();
  }, 120_000);
});
