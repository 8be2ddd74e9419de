/**
 * `api.auth_strategy=http_basic` with Debian's real clients, configured as for Ironic with HTTP basic
 * authentication (`OS_AUTH_TYPE=http_basic`, `OS_ENDPOINT`, `OS_USERNAME`, `OS_PASSWORD`), against a
 * real `ingot serve` whose htpasswd file the test writes (bcrypt, `$2y$` as `htpasswd -B` writes): the
 * `baremetal` CLI and openstacksdk list and change nodes with the right password; a wrong one or none
 * gets 401 and changes nothing; the agent endpoints answer without credentials; the history names the user.
 */
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baremetalAs, python, requireClients, uniqueName, type BasicCredentials } from '../support/openstack-clients.js';
import { startServer, type RunningServer } from '../support/server.js';

const ALICE: BasicCredentials = { username: 'alice', password: 'Wonder-land 42' };
const WRONG: BasicCredentials = { username: 'alice', password: 'wonderland 42' };
/** A bcrypt entry as `htpasswd -B` writes it ($2y$, cost 5). */
const entry = (c: BasicCredentials) => `${c.username}:${bcrypt.hashSync(c.password, 5).replace(/^\$2b\$/, '$2y$')}\n`;
const header = (c: BasicCredentials) => ({ authorization: `Basic ${Buffer.from(`${c.username}:${c.password}`).toString('base64')}` });

let server: RunningServer;
let dir: string;
let file: string;

beforeAll(async () => {
  requireClients();
  dir = await mkdtemp(path.join(tmpdir(), 'ingot-basic-'));
  file = path.join(dir, 'htpasswd');
  await writeFile(file, entry(ALICE));
  server = await startServer({ inspector: true, env: { INGOT_API_AUTH_STRATEGY: 'http_basic', INGOT_API_HTTP_BASIC_AUTH_USER_FILE: file } });
}, 60_000);
afterAll(async () => {
  await server?.dispose();
  await rm(dir, { recursive: true, force: true });
});

/** `baremetal ARGS -f json` as `auth`, exit 0 required. */
async function cliJson<T>(auth: BasicCredentials, args: string[]): Promise<T> {
  const r = await baremetalAs(auth, server.url, [...args, '-f', 'json']);
  if (r.code !== 0) throw new Error(`baremetal ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}
const names = async () => (await cliJson<{ Name: string }[]>(ALICE, ['node', 'list'])).map((n) => n.Name);

// Each client run starts a Python interpreter (1–3 s, more on a busy machine).
describe('the real clients with OS_AUTH_TYPE=http_basic', { timeout: 240_000 }, () => {
  const name = uniqueName('basic');

  it('baremetal: creates, manages, powers on and lists a node with the right password; the history names the user', async () => {
    expect((await cliJson<{ name: string }>(ALICE, ['node', 'create', '--driver', 'fake-hardware', '--name', name])).name).toBe(name);
    const manage = await baremetalAs(ALICE, server.url, ['node', 'manage', '--wait', '60', name]);
    expect(manage.code, manage.stderr).toBe(0);
    expect((await baremetalAs(ALICE, server.url, ['node', 'power', 'on', name])).code).toBe(0);
    expect(await names()).toContain(name);

    const listed = await cliJson<Record<string, unknown>[]>(ALICE, ['--os-baremetal-api-version', '1.78', 'node', 'history', 'list', name]);
    expect(listed.flatMap((e) => Object.values(e))).toEqual(expect.arrayContaining(['enroll -> verifying (manage)', 'verifying -> manageable (done)']));
    // The user is in the detailed events (the CLI's --long asks a URL of its own, …/history/detail).
    const res = await fetch(`${server.url}/v1/nodes/${name}/history?detail=True`, { headers: { ...header(ALICE), 'x-openstack-ironic-api-version': '1.78' } });
    const history = ((await res.json()) as { history: { event: string; user: string | null }[] }).history;
    expect(history.length).toBe(listed.length);
    expect(new Set(history.map((e) => e.user))).toEqual(new Set(['alice']));
  });

  it('baremetal: a wrong password or none gets 401 and changes nothing', async () => {
    const none = await baremetalAs(undefined, server.url, ['node', 'list']);
    expect(none.code).not.toBe(0);
    expect(none.stderr).toMatch(/Authorization required/);
    const wrong = await baremetalAs(WRONG, server.url, ['node', 'create', '--driver', 'fake-hardware', '--name', `${name}-x`]);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toMatch(/Incorrect username or password/);
    const off = await baremetalAs(WRONG, server.url, ['node', 'power', 'off', name]);
    expect(off.code).not.toBe(0);
    const del = await baremetalAs(undefined, server.url, ['node', 'delete', name]);
    expect(del.code).not.toBe(0);

    const raw = await fetch(`${server.url}/v1/nodes/${name}`, { headers: header(WRONG) });
    expect(raw.status).toBe(401);
    expect(raw.headers.get('www-authenticate')).toBe('Basic realm="Baremetal API"');
    expect(await raw.json()).toEqual({ error_message: JSON.stringify({ faultcode: 'Client', faultstring: 'Incorrect username or password', debuginfo: null }) });

    expect(await names()).toEqual(expect.arrayContaining([name]));
    expect(await names()).not.toContain(`${name}-x`);
    expect((await cliJson<{ power_state: string }>(ALICE, ['node', 'show', name])).power_state).toBe('power on');
  });

  it('openstacksdk: works with the right password and gets 401 with a wrong one', async () => {
    type Report = { nodes: string[] | null; created: string | null; error: { type: string; status: number | null; message: string } | null };
    const ok = await python<Report>('http_basic_checks.py', [`${name}-sdk`], server.url, 60_000, ALICE);
    expect(ok).toMatchObject({ error: null, created: `${name}-sdk` });
    expect(ok.nodes).toContain(name);
    const refused = await python<Report>('http_basic_checks.py', [`${name}-sdk2`], server.url, 60_000, WRONG);
    expect(refused).toMatchObject({ nodes: null, created: null, error: { status: 401 } });
    expect(await names()).toContain(`${name}-sdk`);
    expect(await names()).not.toContain(`${name}-sdk2`);
  });

  it('the version documents and the agent endpoints answer without credentials; the inspector API protects the rest', async () => {
    expect((await fetch(`${server.url}/`)).status).toBe(200);
    expect((await fetch(`${server.url}/v1`)).status).toBe(200);
    const lookup = await fetch(`${server.url}/v1/lookup?addresses=52:54:00:ab:cd:ef`);
    expect(lookup.status).toBe(404);
    const heartbeat = await fetch(`${server.url}/v1/heartbeat/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"callback_url": "http://127.0.0.1:9999"}' });
    expect(heartbeat.status).not.toBe(401);
    const inspection = await fetch(`${server.url}/v1/continue_inspection`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"inventory": {}}' });
    expect(inspection.status).not.toBe(401);
    const inspector = server.inspectorUrl as string;
    expect((await fetch(`${inspector}/v1/continue`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"inventory": {}}' })).status).not.toBe(401);
    expect((await fetch(`${inspector}/v1/introspection`)).status).toBe(401);
    expect((await fetch(`${inspector}/v1/introspection`, { headers: header(ALICE) })).status).toBe(200);
  });

  it('reads the htpasswd file again when it changes: a new user gets in without a restart', async () => {
    const bob: BasicCredentials = { username: 'bob', password: 'builder' };
    await appendFile(file, entry(bob));
    // The file is checked at most once a second: wait for the first request that sees the change.
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      status = (await fetch(`${server.url}/v1/nodes`, { headers: header(bob) })).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
    expect((await cliJson<unknown[]>(bob, ['node', 'list'])).length).toBeGreaterThan(0);
  });
});
