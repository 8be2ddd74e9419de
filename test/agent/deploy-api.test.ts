// The deploy agent over real HTTP on 127.0.0.1: lookup and heartbeats against a fake conductor, the
// command API with its agent token, sync and async commands, forced heartbeats, busy refusals, logs and
// power off.
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, it, expect } from 'vitest';
import type { GetCleanStepsResult } from '../../src/protocol/agent/commands.js';
import type { DeployAgent } from '../../src/agent/deploy-agent.js';
import { startSimulatedDeployAgent } from '../../src/agent/simulation.js';
import { PROFILE, command, fakeConductor, waitFor } from './deploy-peers.js';

const TOKEN = 'tok-0123456789abcdef0123456789abcdef0123456';
const NODE = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123';


const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(opts: { heartbeatTimeoutS?: number; notReadyLookups?: number; minIntervalMs?: number; onPowerOff?: () => void } = {}) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'ingot-deploy-api-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const conductor = await fakeConductor({ nodeUuid: NODE, token: TOKEN, macs: ['52:54:00:aa:00:02'], heartbeatTimeoutS: opts.heartbeatTimeoutS, notReadyLookups: opts.notReadyLookups });
  cleanups.push(() => conductor.close());
  const logs: string[] = [];
  const agent: DeployAgent = await startSimulatedDeployAgent({
    profile: PROFILE,
    apiUrl: conductor.url,
    disks: { '/dev/sda': path.join(dir, 'sda.img'), '/dev/sdb': path.join(dir, 'sdb.img') },
    lookupIntervalMs: 50,
    lookupMaxIntervalMs: 100,
    heartbeatMinIntervalMs: opts.minIntervalMs ?? 300,
    download: { retries: 0, retryIntervalMs: 10, timeoutMs: 1500 },
    onPowerOff: opts.onPowerOff,
    log: (m) => logs.push(m),
  });
  cleanups.push(() => agent.stop());
  return { dir, conductor, agent, logs, url: `http://127.0.0.1:${agent.port}` };
}

async function until(check: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('deploy agent lookup and heartbeats', () => {
  it('retries the lookup, keeps the token it hands out and heartbeats with it to its callback URL', async () => {
    const { conductor, agent } = await setup({ heartbeatTimeoutS: 1, notReadyLookups: 2 });
    expect(agent.nodeUuid).toBe(NODE);
    expect(conductor.lookups).toHaveLength(3);
    expect(new URLSearchParams(conductor.lookups[2]).get('addresses')).toBe('52:54:00:aa:00:01,52:54:00:aa:00:02');
    // heartbeat_timeout 1 s: the first at once, then every 0.3–0.6 s (the pacing itself is
    // src/agent/heartbeat.test.ts's, on a virtual clock).
    await until(() => conductor.heartbeats.length >= 3, 10_000);
    const [first] = conductor.heartbeats;
    expect(first?.node).toBe(NODE);
    expect(first?.body).toEqual({ callback_url: `http://127.0.0.1:${agent.port}`, agent_token: TOKEN, agent_version: expect.any(String) });
    expect(first?.version).toBe('1.68');
    expect(conductor.heartbeats.slice(0, 3).map((h) => h.body)).toEqual([first?.body, first?.body, first?.body]);
    expect(conductor.rejected).toBe(0);
  });

  it('forces a heartbeat soon after an asynchronous command finishes', async () => {
    const { conductor, url } = await setup({ heartbeatTimeoutS: 300, minIntervalMs: 300 });
    await until(() => conductor.heartbeats.length === 1, 2000);
    const started = await command(url, 'clean.execute_clean_step', { step: { step: 'erase_devices_metadata', priority: 99, interface: 'deploy' }, node: {}, ports: [] }, { token: TOKEN });
    expect(started.status).toBe(200);
    const done = await waitFor(url, started.body.id);
    expect(done.command_status).toBe('SUCCEEDED');
    // With heartbeat_timeout 300 s the next regular heartbeat is 90–180 s away: a second one within the
    // test is the forced one.
    await until(() => conductor.heartbeats.length === 2, 10_000);
    expect(conductor.heartbeats[1]?.body.agent_token).toBe(TOKEN);
  });
});

describe('deploy agent command API', () => {
  it('requires the agent token on commands (401), and on polls once a poll carried one', async () => {
    const { url } = await setup();
    const none = await command(url, 'standby.sync', {});
    expect(none.status).toBe(401);
    expect(none.body.faultstring).toBe('401 Unauthorized: Token invalid.');
    expect((await command(url, 'standby.sync', {}, { token: 'wrong' })).status).toBe(401);
    const ok = await command(url, 'standby.sync', {}, { token: TOKEN });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ command_name: 'sync', command_status: 'SUCCEEDED', command_error: null, command_result: null });
    // Ironic's status polls carry no token: accepted until a poll carries one.
    expect((await fetch(`${url}/v1/commands/`)).status).toBe(200);
    expect((await fetch(`${url}/v1/commands/?agent_token=wrong`)).status).toBe(401);
    expect((await fetch(`${url}/v1/commands/`)).status).toBe(401);
    const list = (await (await fetch(`${url}/v1/commands/?agent_token=${TOKEN}`)).json()) as { commands: { id: string }[] };
    expect(list.commands.map((c) => c.id)).toEqual([ok.body.id]);
  });

  it('answers status and version documents, and refuses malformed or unknown commands', async () => {
    const before = Date.now() / 1000;
    const { url } = await setup();
    const status = (await (await fetch(`${url}/v1/status`)).json()) as { started_at: number; version: string };
    // When this agent started: between the test's start of it and now (seconds, as IPA).
    expect(status.started_at).toBeGreaterThanOrEqual(Math.floor(before));
    expect(status.started_at).toBeLessThanOrEqual(Date.now() / 1000);
    expect(typeof status.version).toBe('string');
    expect(((await (await fetch(`${url}/`)).json()) as { default_version: { id: string } }).default_version.id).toBe('v1');
    for (const body of [{ name: 'standby.sync' }, { name: 'standby.sync', params: [] }, { name: 5, params: {} }, ['standby.sync'], null]) {
      const refused = await fetch(`${url}/v1/commands/?agent_token=${TOKEN}`, { method: 'POST', body: JSON.stringify(body) });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(((await refused.json()) as { faultstring: string }).faultstring).toBe('400 Bad Request: Missing or invalid name or params');
    }
    const badName = await command(url, 'sync', {}, { token: TOKEN });
    expect([badName.status, badName.body.faultstring]).toEqual([400, 'Invalid command: Command name must be of the form <extension>.<name>']);
    const noExt = await command(url, 'raid.create_configuration', {}, { token: TOKEN });
    expect([noExt.status, noExt.body.faultstring]).toEqual([404, 'Not found: Extension with id raid not found.']);
    const noCmd = await command(url, 'standby.fly', {}, { token: TOKEN });
    expect([noCmd.status, noCmd.body.faultstring]).toEqual([400, 'Invalid command: Unknown command: fly']);
    const badImage = await command(url, 'standby.prepare_image', { image_info: { id: 'x', urls: [] } }, { token: TOKEN });
    expect([badImage.status, badImage.body.faultstring]).toEqual([400, "Invalid command parameters: Image 'urls' must be a list with at least one element."]);
    expect((await fetch(`${url}/v1/commands/nope`)).status).toBe(404);
    expect((await fetch(`${url}/v1/nothing`)).status).toBe(404);
  });

  it('lists clean and deploy steps with IPA priorities and answers empty partition UUIDs before a deploy', async () => {
    const { url } = await setup();
    const clean = await command(url, 'clean.get_clean_steps', { node: { uuid: NODE }, ports: [] }, { token: TOKEN });
    const steps = Object.values((clean.body.command_result as GetCleanStepsResult).clean_steps).flat();
    expect(Object.fromEntries(steps.map((s) => [s.step, s.priority]))).toEqual({ erase_devices: 10, erase_devices_metadata: 99 });
    const deploy = await command(url, 'deploy.get_deploy_steps', { node: { uuid: NODE }, ports: [] }, { token: TOKEN });
    expect(JSON.stringify(deploy.body.command_result)).toContain('"write_image"');
    const uuids = await command(url, 'standby.get_partition_uuids', {}, { token: TOKEN });
    expect(uuids.body.command_result).toEqual({});
  });

  it('refuses a new command with 409 while an asynchronous one runs', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((s) => sockets.add(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => {
      for (const s of sockets) s.destroy();
      silent.close(() => r());
    }));
    const { url } = await setup();
    const image = { id: 'slow', urls: [`http://127.0.0.1:${(silent.address() as net.AddressInfo).port}/slow.img`], os_hash_algo: 'sha256', os_hash_value: 'ab'.repeat(32), disk_format: 'raw' };
    const first = await command(url, 'standby.prepare_image', { image_info: image }, { token: TOKEN });
    expect(first.body.command_status).toBe('RUNNING');
    const second = await command(url, 'standby.sync', {}, { token: TOKEN });
    expect(second.status).toBe(409);
    expect(second.body.faultstring).toBe('Agent is busy: executing command prepare_image');
    const failed = await waitFor(url, first.body.id);
    expect(failed.command_status).toBe('FAILED');
    expect(failed.command_error).toMatchObject({ type: 'ImageDownloadError', code: 500 });
    expect(failed.command_error?.details).toMatch(/no (answer|data) from 127\.0\.0\.1/);
    expect((await command(url, 'standby.sync', {}, { token: TOKEN })).status).toBe(200);
  });

  it('collects its logs as a base64 gzipped tar holding its own log', async () => {
    const { url } = await setup();
    const r = await command(url, 'log.collect_system_logs', {}, { token: TOKEN });
    expect(r.body.command_status).toBe('SUCCEEDED');
    const tar = gunzipSync(Buffer.from((r.body.command_result as { system_logs: string }).system_logs, 'base64'));
    const names: string[] = [];
    for (let at = 0; at + 512 <= tar.length; ) {
      const name = tar.toString('utf8', at, at + 100).replace(/\0.*$/s, '');
      if (!name) break;
      names.push(name);
      const size = parseInt(tar.toString('ascii', at + 124, at + 136), 8);
      if (name === 'ingot-agent.log') expect(tar.toString('utf8', at + 512, at + 512 + size)).toContain(`Lookup succeeded, node UUID is ${NODE}`);
      at += 512 + Math.ceil(size / 512) * 512;
    }
    expect(names).toContain('ingot-agent.log');
  });

  it('powers the simulated machine off and stops serving', async () => {
    let poweredOff = 0;
    const { url, agent } = await setup({ onPowerOff: () => void poweredOff++ });
    const r = await command(url, 'standby.power_off', {}, { token: TOKEN, wait: true });
    expect(r.body.command_status).toBe('SUCCEEDED');
    expect(poweredOff).toBe(1);
    expect(await agent.done).toBe('power_off');
    await expect(fetch(`${url}/v1/status`)).rejects.toThrow();
  });
});
