// A simulated machine network-boots as a real one would boot Ingot's agent ramdisk: over real HTTP on
// 127.0.0.1 it fetches its iPXE script, kernel and initrd from a boot server, then runs the agent the
// kernel parameters name against a fake Ingot API (inspection callback, lookup, heartbeats).
import { mkdtemp, rm } from 'node:fs/promises';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { listenHttp, readText, sendJson, type Served } from '../../test/support/http-server.js';
import type { HeartbeatRequest } from '../protocol/agent/lookup.js';
import { attachSimulatedAgents, type AgentBootOptions } from './agent-boot.js';
import type { BootEvent, Machine, MachineFaults } from './machine.js';
import { simulatedProfile } from './profiles.js';
import { simulatedMachine } from './simulated.js';

const TOKEN = 'tok-0123456789abcdef0123456789abcdef0123456';
const NODE = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123';
/** Larger than the socket buffers: the server hands it all over only when the machine reads it. */
const INITRD = Buffer.alloc(16 * 1024 * 1024, 7);
const KERNEL = Buffer.alloc(512 * 1024, 3);

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A server on a free port, closed after the test. */
async function serve(handler: http.RequestListener): Promise<Served> {
  const served = await listenHttp(handler);
  cleanups.push(served.close);
  return served;
}

/** Ingot's HTTP boot server for one MAC: its script (null: 404), the kernel and the initrd. */
async function bootServer(mac: string, script: (url: string) => string | null, files: { kernel?: boolean } = {}) {
  const requests: string[] = [];
  const completed: string[] = [];
  const scriptPath = `/pxelinux.cfg/${mac.replace(/:/g, '-')}`;
  const served = await serve((req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(p);
    res.on('finish', () => completed.push(p));
    const text = p === scriptPath ? script(served.url) : null;
    const body = text !== null ? Buffer.from(text) : p === '/deploy/kernel' && files.kernel !== false ? KERNEL : p === '/deploy/initrd' ? INITRD : null;
    if (!body) return void res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': body.length });
    // The tail goes out a moment later: it reaches the socket (and `finish` fires) only when the machine
    // is still reading by then.
    res.write(body.subarray(0, body.length - 1024));
    setTimeout(() => res.end(body.subarray(body.length - 1024)), 100);
  });
  return Object.assign(served, { requests, completed, scriptPath });
}

/** The script Ingot's `ipxe` interface renders, with `params` as the agent's kernel parameters. */
const ipxeScript = (bootUrl: string, mac: string, params: string) =>
  [
    '#!ipxe',
    '',
    'goto deploy',
    '',
    ':deploy',
    'imgfree',
    `kernel --timeout 30000 ${bootUrl}/deploy/kernel selinux=0 troubleshoot=0 text ${params} BOOTIF=01-${mac.replace(/:/g, '-')} coreos.configdrive=0 initrd=initrd || goto deploy`,
    `initrd --timeout 30000 ${bootUrl}/deploy/initrd || goto deploy`,
    'boot',
    '',
  ].join('\n');

interface Heartbeat {
  /** Order of arrival among everything the fake API received. */
  seq: number;
  node: string;
  body: HeartbeatRequest;
}

/** A fake Ingot API: `GET /`, `GET /v1/lookup`, `POST /v1/heartbeat/{node}`, `POST /v1/continue_inspection`. */
async function fakeIngot(macs: string[]) {
  const lookups: URLSearchParams[] = [];
  const heartbeats: Heartbeat[] = [];
  const inspections: { seq: number; body: Record<string, unknown> }[] = [];
  let seq = 0;
  const served = await serve(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const json = (status: number, doc?: unknown) => sendJson(res, status, doc);
    if (req.method === 'GET' && url.pathname === '/') return json(200, { default_version: { id: 'v1', version: '1.95', min_version: '1.1' } });
    if (req.method === 'POST' && url.pathname === '/v1/continue_inspection') {
      inspections.push({ seq: ++seq, body: JSON.parse(await readText(req)) as Record<string, unknown> });
      return json(202, { uuid: NODE });
    }
    if (req.method === 'GET' && url.pathname === '/v1/lookup') {
      lookups.push(url.searchParams);
      const addresses = (url.searchParams.get('addresses') ?? '').split(',');
      if (!addresses.some((a) => macs.includes(a))) return json(404, { error_message: JSON.stringify({ faultstring: 'Node not found' }) });
      // Ingot wipes the token at each power action that boots the ramdisk, so every boot's agent gets one.
      return json(200, {
        node: { uuid: NODE, properties: {}, instance_info: {}, driver_internal_info: {} },
        // Heartbeats every 0.3–0.6 s, so that their stopping shows within a second or two.
        config: { heartbeat_timeout: 1, agent_token: TOKEN, agent_token_required: true, agent_md5_checksum_enable: false },
      });
    }
    const hb = /^\/v1\/heartbeat\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'POST' && hb) {
      const body = JSON.parse(await readText(req)) as HeartbeatRequest;
      if (body.agent_token !== TOKEN) return json(401, { error_message: JSON.stringify({ faultstring: 'Invalid or missing agent token received.' }) });
      heartbeats.push({ seq: ++seq, node: hb[1] as string, body });
      return json(202);
    }
    json(404, { error_message: JSON.stringify({ faultstring: 'not found' }) });
  });
  return Object.assign(served, { lookups, heartbeats, inspections });
}

async function until(what: string, cond: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** True when something answers `GET <url>/v1/status`. */
async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/v1/status`, { signal: AbortSignal.timeout(2000) })).status === 200;
  } catch {
    return false;
  }
}

const PROFILE = simulatedProfile(0, 'sim-0');
const MAC = (PROFILE.nics.find((n) => n.pxe_enabled) ?? PROFILE.nics[0])?.mac as string;
const MACS = PROFILE.nics.map((n) => n.mac);

/** A simulated machine with the agents attached, a disk file, and a log that tests read. */
async function machine(opts: Omit<AgentBootOptions, 'bmcAddressOf' | 'disksOf' | 'logger'>, faults: Partial<MachineFaults> = {}) {
  const m: Machine = simulatedMachine({ name: 'sim-0', profile: PROFILE, username: 'admin', password: 'secret', faults });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'ingot-agent-boot-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const disk = path.join(dir, 'sim-0.img');
  const lines: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
  const detach = attachSimulatedAgents([m], { ...opts, bmcAddressOf: () => '192.0.2.10', disksOf: () => ({ [PROFILE.disks[0]?.name as string]: disk }), logger });
  cleanups.push(detach);
  const boots: BootEvent['device'][] = [];
  m.onBoot((e) => boots.push(e.device));
  const log = () => lines.map((l) => (JSON.parse(l) as { level: number; msg: string }));
  /** Waits until the machine logged a line matching `pattern`. */
  const logged = (pattern: RegExp) => until(`a log line ${pattern}`, () => log().some((l) => pattern.test(l.msg)));
  return { m, boots, log, logged };
}

async function pxeBoot(m: Machine, persistence: 'once' | 'continuous' = 'once'): Promise<void> {
  m.setBootOverride({ device: 'pxe', persistence });
  await m.act('on');
}

/**
 * After the machine logged that its deploy agent stopped (the heartbeat loop has ended): its API no
 * longer answers, and no heartbeat arrives after the stop.
 */
async function expectAgentGone(api: { heartbeats: Heartbeat[] }, logged: (p: RegExp) => Promise<void>, agentUrl: string): Promise<void> {
  await logged(/deploy agent stopped/);
  const count = api.heartbeats.length;
  expect(await answers(agentUrl)).toBe(false);
  expect(api.heartbeats.length).toBe(count);
}

describe('simulated machines boot the agent ramdisk from the network', () => {
  it('fetches the script, kernel and initrd, runs the deploy agent, and stops it at power off', async () => {
    const api = await fakeIngot(MACS);
    const boot = await bootServer(MAC, (url) => ipxeScript(url, MAC, `ipa-api-url=${api.url}`));
    const { m, boots, logged } = await machine({ bootUrl: boot.url });
    await pxeBoot(m);
    await until('two heartbeats', () => api.heartbeats.length >= 2);

    expect(boot.scriptPath).toBe(`/pxelinux.cfg/${MAC.replace(/:/g, '-')}`);
    expect(boot.requests).toEqual([boot.scriptPath, '/deploy/kernel', '/deploy/initrd']);
    expect(boot.completed).toEqual(expect.arrayContaining(['/deploy/kernel', '/deploy/initrd']));
    expect(api.lookups[0]?.get('addresses')?.split(',')).toEqual(MACS);
    expect(api.inspections).toEqual([]);
    const first = api.heartbeats[0] as Heartbeat;
    expect(first.node).toBe(NODE);
    expect(first.body).toMatchObject({ agent_token: TOKEN, callback_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) });
    const agentUrl = first.body.callback_url;
    expect(await answers(agentUrl)).toBe(true);

    await m.act('off');
    await expectAgentGone(api, logged, agentUrl);

    // The one-time override is used up: the next boot is from disk, and runs no agent; the network boot
    // after it is the next to fetch anything.
    const lookups = api.lookups.length;
    await m.act('on');
    expect(boots).toEqual(['pxe', 'disk']);
    await m.act('off');
    await pxeBoot(m);
    await until('the next network boot\u2019s lookup', () => api.lookups.length > lookups);
    expect(boots).toEqual(['pxe', 'disk', 'pxe']);
    expect(boot.requests).toEqual([boot.scriptPath, '/deploy/kernel', '/deploy/initrd', boot.scriptPath, '/deploy/kernel', '/deploy/initrd']);
    expect(api.lookups.length).toBe(lookups + 1);
  }, 20_000);

  it('a new boot replaces the agent; its run_image resets the machine and its power_off turns it off', async () => {
    const api = await fakeIngot(MACS);
    const boot = await bootServer(MAC, (url) => ipxeScript(url, MAC, `ipa-api-url=${api.url}`));
    const { m, boots, logged } = await machine({ bootUrl: boot.url });
    await pxeBoot(m, 'continuous');
    await until('a heartbeat', () => api.heartbeats.length >= 1);
    const firstUrl = (api.heartbeats[0] as Heartbeat).body.callback_url;

    const cmd = (url: string, name: string) =>
      fetch(`${url}/v1/commands/?wait=false&agent_token=${TOKEN}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name, params: {} }) });
    expect((await cmd(firstUrl, 'standby.run_image')).status).toBe(200);
    await until('a heartbeat from the agent of the second boot', () => api.heartbeats.some((h) => h.body.callback_url !== firstUrl));
    expect(boots).toEqual(['pxe', 'pxe']);
    expect(await answers(firstUrl)).toBe(false);
    expect(boot.requests.filter((r) => r === boot.scriptPath)).toHaveLength(2);

    const secondUrl = (api.heartbeats.find((h) => h.body.callback_url !== firstUrl) as Heartbeat).body.callback_url;
    let off = false;
    m.onPowerOff(() => (off = true));
    expect((await cmd(secondUrl, 'standby.power_off')).status).toBe(200);
    await until('the machine powers off', () => off);
    expect(await m.power()).toBe('off');
    await expectAgentGone(api, logged, secondUrl);
  }, 20_000);

  it('boots nothing without a script for its MAC, or when an image does not load', async () => {
    const api = await fakeIngot(MACS);
    const none = await bootServer(MAC, () => null);
    const a = await machine({ bootUrl: none.url });
    await pxeBoot(a.m);
    // The warning ends the boot: nothing is fetched or started after it.
    await a.logged(/it boots nothing/);
    expect(none.requests).toEqual([none.scriptPath]);
    expect(api.lookups).toEqual([]);
    const warning = a.log().find((l) => l.level === 40);
    expect(warning?.msg).toContain('sim-0');
    expect(warning?.msg).toContain(`${none.url}${none.scriptPath}`);
    expect(warning?.msg).toContain('HTTP 404');

    const noKernel = await bootServer(MAC, (url) => ipxeScript(url, MAC, `ipa-api-url=${api.url}`), { kernel: false });
    const b = await machine({ bootUrl: noKernel.url });
    await pxeBoot(b.m);
    await b.logged(/it boots nothing/);
    expect(noKernel.requests).toEqual([noKernel.scriptPath, '/deploy/kernel']);
    expect(api.lookups).toEqual([]);
    expect(b.log().find((l) => l.level === 40)?.msg).toContain(`${noKernel.url}/deploy/kernel failed: HTTP 404`);
  }, 20_000);

  it('with agent_stall, the agent dies after heartbeating a while, and the machine stays on', async () => {
    const api = await fakeIngot(MACS);
    const boot = await bootServer(MAC, (url) => ipxeScript(url, MAC, `ipa-api-url=${api.url}`));
    const { m, log, logged } = await machine({ bootUrl: boot.url }, { agent_stall: true });
    await pxeBoot(m);
    await until('a heartbeat', () => api.heartbeats.length >= 1);
    const first = api.heartbeats[0] as Heartbeat;
    await logged(/the agent dies \(agent_stall fault\)/);
    await expectAgentGone(api, logged, first.body.callback_url);
    // It heartbeat at its pace (every 0.3–0.6 s) until it died, then stopped: the machine stays on.
    expect(api.heartbeats.length).toBeGreaterThanOrEqual(2);
    const messages = log().map((l) => l.msg);
    expect(messages.findIndex((l) => l.includes('the agent dies'))).toBeLessThan(messages.findIndex((l) => l.includes('deploy agent stopped')));
    expect(await m.power()).toBe('on');
  }, 20_000);

  it('posts the inventory to ipa-inspection-callback-url, then runs the deploy agent for the node it names', async () => {
    const api = await fakeIngot(MACS);
    const params = `ipa-inspection-callback-url=${api.url}/v1/continue_inspection ipa-api-url=${api.url}`;
    const boot = await bootServer(MAC, (url) => ipxeScript(url, MAC, params));
    const { m } = await machine({ bootUrl: boot.url });
    await pxeBoot(m);
    await until('a heartbeat', () => api.heartbeats.length >= 1);
    expect(api.inspections).toHaveLength(1);
    const inventory = (api.inspections[0]?.body as { inventory: { interfaces: { mac_address: string }[]; bmc_address: string } }).inventory;
    expect(inventory.interfaces.map((i) => i.mac_address)).toEqual(MACS);
    expect(inventory.bmc_address).toBe('192.0.2.10');
    expect(api.inspections[0]?.seq).toBeLessThan((api.heartbeats[0] as Heartbeat).seq);
    expect(api.lookups[0]?.get('node_uuid')).toBe(NODE);
  }, 20_000);

  it('without a boot server, inspects against ingotUrl and then runs the deploy agent there', async () => {
    const api = await fakeIngot(MACS);
    const { m } = await machine({ ingotUrl: api.url }, { agent_error: 'mdadm: no answer' });
    await pxeBoot(m);
    await until('a heartbeat', () => api.heartbeats.length >= 1);
    expect(api.inspections).toHaveLength(1);
    expect(api.inspections[0]?.body.error).toBe('mdadm: no answer');
    expect(api.heartbeats[0]?.node).toBe(NODE);
  }, 20_000);

  it('with agent_missing, a network boot fetches the images and starts no agent', async () => {
    const api = await fakeIngot(MACS);
    const params = `ipa-inspection-callback-url=${api.url}/v1/continue_inspection ipa-api-url=${api.url}`;
    const boot = await bootServer(MAC, (url) => ipxeScript(url, MAC, params));
    const { m, logged } = await machine({ bootUrl: boot.url }, { agent_missing: true });
    await pxeBoot(m);
    await logged(/no agent starts \(agent_missing fault\)/);
    expect(boot.requests).toEqual([boot.scriptPath, '/deploy/kernel', '/deploy/initrd']);
    expect(api.inspections).toEqual([]);
    expect(api.lookups).toEqual([]);
  }, 20_000);
});
