/**
 * Secrets stay secret: `ingot serve` (debug logs captured) gets nodes with known secret values — BMC
 * and Redfish passwords, an SNMP key, an image pull secret, a config drive whose user data holds a
 * password, `instance_info.image_url` with a credential, an image source URL with one — and the agent
 * token it hands out itself. Two deploys fail on purpose in the simulated fleet: one on a checksum
 * mismatch, one on an image URL with a credential that nobody answers, which the failure quotes. Then every API
 * answer (nodes at several microversions, lists, fields, history, ports, states), the `ingot` client
 * CLI's output, the server's log and every file in its data directory (agent logs unpacked) are
 * searched for each secret: none may appear. The conductor still used them: the agent got its token.
 */
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentMachine, deployProfile, settled, type WatchedNode } from '../support/agent-machine.js';
import { runCli } from '../support/cli.js';
import { makeRawImage } from '../support/deploy-image.js';
import { api, apiOk, waitNode } from '../support/http.js';
import { startServer, type RunningServer } from '../support/server.js';

type NodeView = Record<string, unknown> & WatchedNode & { uuid: string; reservation: string | null; last_error: string | null };

const SECRETS = {
  ipmiPassword: 'ipmi-Pw-7f3a91c2',
  redfishPassword: 'redfish-Pw-55e0d1b4',
  snmpKey: 'snmp-Key-0c9be8a1',
  pullSecret: 'cHVsbC1zZWNyZXQtOWQyZQ==',
  userData: 'cloud-Pw-a4b7c9d0',
  imageUrlCredential: 'swift-Pw-3e8d2f61',
  sourceCredential: 'source-Pw-b1c2d3e4',
};

const image = makeRawImage(8);
const other = makeRawImage(8);
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

async function imageServer(): Promise<string> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-length': image.bytes.length });
    res.end(image.bytes);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Every file under `dir` (the SQLite files aside: the database holds the secrets the conductor uses). */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(file)));
    else if (entry.isFile() && !entry.name.startsWith('ingot.sqlite')) out.push(file);
  }
  return out;
}

/** A file's text for the search: gzip (collected agent logs) unpacked. */
async function fileText(file: string): Promise<string> {
  const bytes = await readFile(file);
  const raw = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
  return raw.toString('latin1');
}

function findSecrets(where: string, text: string, secrets: Record<string, string>): string[] {
  return Object.entries(secrets).filter(([, v]) => text.includes(v)).map(([k]) => `${k} in ${where}`);
}

describe('secrets stay secret', () => {
  it('appear in no answer, history, log or file after deploys that fail', async () => {
    const host = await imageServer();
    const disks = await mkdtemp(path.join(tmpdir(), 'ingot-secrets-'));
    cleanups.push(() => rm(disks, { recursive: true, force: true }));
    const ingot: RunningServer = await startServer({
      env: {
        INGOT_LOG_LEVEL: 'debug',
        INGOT_CONDUCTOR_AGENT_HEARTBEAT_TIMEOUT_S: '2',
        INGOT_CONDUCTOR_DEPLOY_CALLBACK_TIMEOUT_S: '30',
        INGOT_CONDUCTOR_CHECK_PROVISION_STATE_INTERVAL_S: '1',
        INGOT_CONDUCTOR_SYNC_POWER_STATE_INTERVAL_S: '600',
      },
    });
    cleanups.push(() => ingot.dispose());
    const read = async (uuid: string) => (await api<NodeView>(ingot.url, 'GET', `/v1/nodes/${uuid}`)).body;

    const make = async (i: number, name: string, imageSource: string, sha256: string) => {
      const node = await apiOk<NodeView>(ingot.url, 'POST', '/v1/nodes', {
        name, driver: 'manual-management', boot_interface: 'fake', deploy_interface: 'direct', power_interface: 'fake', management_interface: 'fake',
        driver_info: {
          ipmi_address: '127.0.0.1', ipmi_username: 'admin', ipmi_password: SECRETS.ipmiPassword,
          redfish_username: 'root', redfish_password: SECRETS.redfishPassword, snmp_auth_key: SECRETS.snmpKey,
        },
        instance_info: {
          image_source: imageSource, image_os_hash_algo: 'sha256', image_os_hash_value: sha256,
          image_pull_secret: SECRETS.pullSecret, image_url: `https://swift:${SECRETS.imageUrlCredential}@${host}/temp/image.raw`,
        },
      });
      const profile = deployProfile(40 + i);
      await apiOk(ingot.url, 'POST', '/v1/ports', { node_uuid: node.uuid, address: profile.nics[0]?.mac, pxe_enabled: true });
      const machine = new AgentMachine(node.uuid, profile, path.join(disks, `disk-${i}.img`), ingot.url, read);
      cleanups.push(() => machine.close());
      await apiOk(ingot.url, 'PUT', `/v1/nodes/${node.uuid}/states/provision`, { target: 'manage' });
      await waitNode<NodeView>(ingot.url, node.uuid, settled, 60_000);
      await apiOk(ingot.url, 'PUT', `/v1/nodes/${node.uuid}/states/provision`, { target: 'provide' });
      expect((await waitNode<NodeView>(ingot.url, node.uuid, settled, 60_000)).provision_state).toBe('available');
      return node;
    };
    const mismatch = await make(1, 'secret-checksum', `http://${host}/image.raw`, other.sha256);
    const credential = await make(2, 'secret-source', `http://img:${SECRETS.sourceCredential}@127.0.0.1:1/image.raw`, image.sha256);

    // The agent token is Ingot's own secret: read it from the database while the agent holds it.
    const db = new BetterSqlite3(path.join(ingot.dataDir, 'ingot.sqlite'), { readonly: true, fileMustExist: true });
    cleanups.push(async () => {
      db.close();
    });
    const tokens = new Set<string>();
    const watchTokens = setInterval(() => {
      for (const row of db.prepare('SELECT driver_internal_info FROM nodes').all() as { driver_internal_info: string }[]) {
        const token = (JSON.parse(row.driver_internal_info) as { agent_secret_token?: unknown }).agent_secret_token;
        if (typeof token === 'string') tokens.add(token);
      }
    }, 50);
    cleanups.push(async () => clearInterval(watchTokens));

    const configdrive = { user_data: `#cloud-config\nchpasswd:\n  list: |\n    root:${SECRETS.userData}\n`, meta_data: { hostname: 'secret-1' } };
    for (const node of [mismatch, credential]) await apiOk(ingot.url, 'PUT', `/v1/nodes/${node.uuid}/states/provision`, { target: 'active', configdrive });
    const failed = await Promise.all([mismatch, credential].map((n) => waitNode<NodeView>(ingot.url, n.uuid, settled, 90_000)));
    clearInterval(watchTokens);
    for (const n of failed) expect(n.provision_state, n.last_error ?? '').toBe('deploy failed');
    expect(failed[0]?.last_error).toMatch(/checksum/i);
    expect(failed[1]?.last_error).toContain('http://img:******@127.0.0.1:1/image.raw');
    // The conductor handed the agent its token; the conductor keeps the real passwords.
    expect(tokens.size).toBeGreaterThan(0);
    const stored = db.prepare('SELECT driver_info FROM nodes WHERE uuid = ?').get(mismatch.uuid) as { driver_info: string };
    expect(JSON.parse(stored.driver_info)).toMatchObject({ ipmi_password: SECRETS.ipmiPassword, redfish_password: SECRETS.redfishPassword });
    const secrets: Record<string, string> = { ...SECRETS };
    [...tokens].forEach((t, i) => (secrets[`agentToken${i}`] = t));

    // Every answer.
    const answers: [string, string][] = [];
    const get = async (p: string, version = 'latest') => {
      const r = await api(ingot.url, 'GET', p, undefined, version);
      expect(r.status, `GET ${p} at ${version}`).toBe(200);
      answers.push([`GET ${p} (${version})`, JSON.stringify(r.body)]);
      return r.body;
    };
    for (const version of ['1.1', '1.38', '1.65', 'latest']) {
      if (version === '1.65' || version === 'latest') await get('/v1/nodes?detail=True', version);
      await get('/v1/nodes/detail', version);
      for (const n of failed) await get(`/v1/nodes/${n.uuid}`, version);
    }
    for (const n of failed) {
      await get(`/v1/nodes/${n.uuid}?fields=driver_info,instance_info,driver_internal_info,last_error`);
      await get(`/v1/nodes/${n.uuid}/states`);
      await get(`/v1/nodes/${n.uuid}/ports?detail=True`);
      const history = (await get(`/v1/nodes/${n.uuid}/history?detail=True`)) as { history: { uuid: string }[] };
      expect(history.history.length).toBeGreaterThan(0);
      for (const h of history.history) await get(`/v1/nodes/${n.uuid}/history/${h.uuid}`);
      await get(`/v1/nodes/${n.uuid}/validate`);
    }
    await get('/v1/ports/detail');

    // The client CLI shows what the API gives.
    for (const n of failed) {
      const shown = await runCli(ingot.url, ['node', 'show', n.uuid, '-f', 'json']);
      expect(shown.code, shown.stderr).toBe(0);
      answers.push([`ingot node show ${n.uuid}`, shown.stdout + shown.stderr]);
      const history = await runCli(ingot.url, ['node', 'history', 'list', n.uuid, '--long']);
      answers.push([`ingot node history list ${n.uuid}`, history.stdout + history.stderr]);
    }
    const list = await runCli(ingot.url, ['node', 'list', '--long']);
    answers.push(['ingot node list --long', list.stdout + list.stderr]);

    const found: string[] = [];
    for (const [where, text] of answers) found.push(...findSecrets(where, text, secrets));
    // The log at debug level, and every file Ingot keeps.
    const log = ingot.output();
    expect(log).toContain("wait call-back -> deploy failed (fail)");
    found.push(...findSecrets('the server log', log, secrets));
    const files = await filesUnder(ingot.dataDir);
    expect(files.some((f) => f.includes(`${path.sep}deploy-logs${path.sep}`))).toBe(true);
    for (const file of files) if ((await stat(file)).size < 64 * 2 ** 20) found.push(...findSecrets(path.relative(ingot.dataDir, file), await fileText(file), secrets));
    expect(found).toEqual([]);
  }, 180_000);
});
