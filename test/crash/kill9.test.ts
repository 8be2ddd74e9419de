/**
 * Crash safety of `ingot serve`: a server killed with SIGKILL in the middle of a deploy loses nothing,
 * leaves no lock held once it is back, and puts the interrupted node into `deploy failed` with a
 * `last_error` saying why; the node can then be deployed again or undeployed. A SIGTERM during a deploy
 * is a graceful stop: work that outlives the grace period is abandoned (its node fails with last_error), the
 * process exits with 0 and no lock stays held. Each case runs on SQLite and on PostgreSQL (a fresh
 * database per case, dropped afterwards).
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { api, apiOk, waitNode } from '../support/http.js';
import { startServer, type RunningServer } from '../support/server.js';
import { DIALECTS, type Dialect } from '../support/stores.js';

type Node = Record<string, unknown> & {
  uuid: string;
  name: string;
  provision_state: string;
  target_provision_state: string | null;
  reservation: string | null;
  last_error: string | null;
  driver_info: Record<string, unknown>;
  properties: Record<string, unknown>;
  extra: Record<string, unknown>;
};

const servers: RunningServer[] = [];

afterEach(async () => {
  for (const s of servers.splice(0)) await s.dispose();
});

/** Enrolls a fake-hardware node with a port and takes it to `available`. */
async function availableNode(url: string, name: string): Promise<{ node: Node; portUuid: string }> {
  const created = await apiOk<Node>(url, 'POST', '/v1/nodes', {
    driver: 'fake-hardware',
    name,
    properties: { cpus: 2, memory_mb: 4096 },
    extra: { rack: 'r1' },
    driver_info: { fake_username: 'admin' },
  });
  const port = await apiOk<{ uuid: string }>(url, 'POST', '/v1/ports', { node_uuid: created.uuid, address: '52:54:00:12:34:56' });
  await apiOk(url, 'PUT', `/v1/nodes/${created.uuid}/states/provision`, { target: 'manage' });
  let node = await waitNode<Node>(url, created.uuid, (n) => n.provision_state === 'manageable');
  expect(node.provision_state).toBe('manageable');
  await apiOk(url, 'PUT', `/v1/nodes/${created.uuid}/states/provision`, { target: 'provide' });
  node = await waitNode<Node>(url, created.uuid, (n) => n.provision_state === 'available' && n.reservation === null);
  expect(node.provision_state).toBe('available');
  return { node, portUuid: port.uuid };
}

/** Sets the fake deploy delay (seconds) and starts a deploy; resolves once the node is seen deploying. */
async function startSlowDeploy(url: string, uuid: string, delaySeconds: number): Promise<Node> {
  await apiOk(url, 'PATCH', `/v1/nodes/${uuid}`, [
    { op: 'add', path: '/driver_info/fake_deploy_delay', value: String(delaySeconds) },
  ]);
  await apiOk(url, 'PUT', `/v1/nodes/${uuid}/states/provision`, { target: 'active' });
  const node = await waitNode<Node>(url, uuid, (n) => n.provision_state === 'deploying' && n.reservation !== null, 10_000);
  expect(node.provision_state).toBe('deploying');
  expect(node.reservation).not.toBeNull();
  return node;
}

/** What a stopped server left in its database: the node's row and how many nodes are still locked. */
interface LeftBehind {
  row: { provision_state: string; reservation: string | null; last_error: string | null } | undefined;
  held: number;
}

async function leftBehind(server: RunningServer, dialect: Dialect, uuid: string): Promise<LeftBehind> {
  const rowSql = 'SELECT provision_state, reservation, last_error FROM nodes WHERE uuid = ';
  const heldSql = 'SELECT COUNT(*) AS n FROM nodes WHERE reservation IS NOT NULL';
  if (dialect === 'sqlite') {
    const db = new Database(path.join(server.dataDir, 'ingot.sqlite'), { readonly: true });
    try {
      return { row: db.prepare(`${rowSql}?`).get(uuid) as LeftBehind['row'], held: (db.prepare(heldSql).get() as { n: number }).n };
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    const row = (await client.query(`${rowSql}$1`, [uuid])).rows[0] as LeftBehind['row'];
    return { row, held: Number((await client.query(heldSql)).rows[0].n) };
  } finally {
    await client.end();
  }
}

describe.each(DIALECTS)('crash safety of ingot serve on %s', (dialect) => {
  it('after kill -9 during a deploy: nothing lost, no lock held, deploy failed with last_error, recoverable', async () => {
    const server = await startServer({ dialect });
    servers.push(server);
    const { node: before, portUuid } = await availableNode(server.url, 'crash-kill9');
    await startSlowDeploy(server.url, before.uuid, 30);

    await server.kill9();
    await server.restart();

    // Recovery may run just after the listener is up: wait (bounded) until the node leaves `deploying`.
    const after = await waitNode<Node>(server.url, before.uuid, (n) => n.provision_state !== 'deploying', 15_000);
    expect(after.provision_state).toBe('deploy failed');
    expect(after.reservation).toBeNull();
    expect(after.last_error).toMatch(/conductor/i);
    expect(after.last_error).toMatch(/deploy/i);
    expect(after).toMatchObject({
      uuid: before.uuid,
      name: 'crash-kill9',
      driver: 'fake-hardware',
      properties: { cpus: 2, memory_mb: 4096 },
      extra: { rack: 'r1' },
    });
    expect(after.driver_info).toMatchObject({ fake_deploy_delay: '30' });
    const port = await apiOk<{ node_uuid: string; address: string }>(server.url, 'GET', `/v1/ports/${portUuid}`);
    expect(port).toMatchObject({ node_uuid: before.uuid, address: '52:54:00:12:34:56' });

    // The interrupted deploy can be retried...
    await apiOk(server.url, 'PATCH', `/v1/nodes/${before.uuid}`, [{ op: 'remove', path: '/driver_info/fake_deploy_delay' }]);
    await apiOk(server.url, 'PUT', `/v1/nodes/${before.uuid}/states/provision`, { target: 'active' });
    const active = await waitNode<Node>(server.url, before.uuid, (n) => n.provision_state === 'active' && n.reservation === null);
    expect(active).toMatchObject({ provision_state: 'active', reservation: null, last_error: null });
    // ...and undone.
    await apiOk(server.url, 'PUT', `/v1/nodes/${before.uuid}/states/provision`, { target: 'deleted' });
    const back = await waitNode<Node>(server.url, before.uuid, (n) => n.provision_state === 'available' && n.reservation === null);
    expect(back).toMatchObject({ provision_state: 'available', reservation: null });
  }, 120_000);

  it('after kill -9 during a deploy the failed node can be undeployed directly', async () => {
    const server = await startServer({ dialect });
    servers.push(server);
    const { node } = await availableNode(server.url, 'crash-undeploy');
    await startSlowDeploy(server.url, node.uuid, 30);
    await server.kill9();
    await server.restart();
    const failed = await waitNode<Node>(server.url, node.uuid, (n) => n.provision_state !== 'deploying', 15_000);
    expect(failed.provision_state).toBe('deploy failed');
    await apiOk(server.url, 'PATCH', `/v1/nodes/${node.uuid}`, [{ op: 'remove', path: '/driver_info/fake_deploy_delay' }]);
    await apiOk(server.url, 'PUT', `/v1/nodes/${node.uuid}/states/provision`, { target: 'deleted' });
    const back = await waitNode<Node>(server.url, node.uuid, (n) => n.provision_state === 'available' && n.reservation === null);
    expect(back).toMatchObject({ provision_state: 'available', reservation: null });
  }, 120_000);

  it('SIGTERM during a deploy abandons it after the grace period, exits cleanly and leaves no lock held', async () => {
    // A 2 s grace period against a 30 s deploy: the stop must abandon the deploy, not wait for it.
    const server = await startServer({ dialect, env: { INGOT_CONDUCTOR_GRACEFUL_SHUTDOWN_TIMEOUT_S: '2' } });
    servers.push(server);
    const { node } = await availableNode(server.url, 'crash-sigterm');
    await startSlowDeploy(server.url, node.uuid, 30);

    // The grace period ends the stop, not the deploy: within the 20 s given, SIGKILL never comes.
    const exit = await server.stop(20_000);
    expect(exit).toEqual({ code: 0, signal: null });

    // Read the database the stopped server left behind: no lock, no half-done deploy.
    const { row, held } = await leftBehind(server, dialect, node.uuid);
    expect(row).toBeDefined();
    expect(row?.reservation).toBeNull();
    expect(row?.provision_state).toBe('deploy failed');
    expect(row?.last_error).toMatch(/conductor/i);
    expect(held).toBe(0);

    await server.restart();
    const after = await apiOk<Node>(server.url, 'GET', `/v1/nodes/${node.uuid}`);
    expect(after).toMatchObject({ reservation: null, provision_state: 'deploy failed' });
    expect(after.name).toBe('crash-sigterm');
    const nodes = await api<{ nodes: unknown[] }>(server.url, 'GET', '/v1/nodes');
    expect(nodes.body.nodes).toHaveLength(1);
  }, 120_000);
});
