/**
 * Fast track with a real deploy agent over HTTP: a conductor and the API on loopback, nodes whose
 * "machine" keeps its simulated agent running until it is powered off or boots a new ramdisk (the
 * AgentMachine's `fastTrack`). Cleaning leaves the agent running with the machine on; the deployment
 * that follows hands the image to that same agent without a ramdisk boot. An agent that is gone without
 * Ingot knowing, a machine powered off through the API, a node that turns fast track off for itself:
 * each boots the ramdisk as without fast track, and the node history says why.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRunningAgentEvent, runningAgentEvent } from '../src/drivers/agent/fast-track.js';
import { waitForNode, type TestConductor } from '../src/conductor/conductor.test-support.js';
import { AgentMachine, deployProfile, provision } from './support/agent-machine.js';
import { startDeployHarness, type DeployHarness } from './support/deploy-harness.js';
import { serveFiles, type FileServer } from './support/files.js';
import { apiOk, api as call } from './support/http.js';
import { makeRawImage, metadataErased, readDeployedDisk } from './support/deploy-image.js';

const image = makeRawImage(8);

let harness: DeployHarness;
let t: TestConductor;
let api: string;
let images: FileServer;
let imageUrl: string;
let dir: string;
const machines: AgentMachine[] = [];

const ok = <T = unknown>(method: string, url: string, body?: unknown) => apiOk<T>(api, method, url, body);

/** The node's history events, oldest first. */
async function events(uuid: string): Promise<string[]> {
  const { history } = await ok<{ history: { event: string }[] }>('GET', `/v1/nodes/${uuid}/history?detail=true&limit=1000`);
  return history.map((h) => h.event);
}

const booted = (all: string[], kind: string) => all.filter((e) => e === `${kind} ramdisk prepared by the fake boot interface; machine booting from the network`).length;

/** A node with fast track in driver_info (unless `fastTrack` is null) and a machine whose agent outlives the phases; provided to `available`. */
async function enrollAvailable(i: number, fastTrack: unknown = true): Promise<{ uuid: string; machine: AgentMachine }> {
  const p = deployProfile(i);
  const node = await ok<{ uuid: string }>('POST', '/v1/nodes', {
    name: `fast-${i}`, driver: 'manual-management', boot_interface: 'fake', deploy_interface: 'direct', power_interface: 'fake', management_interface: 'fake',
    ...(fastTrack === null ? {} : { driver_info: { fast_track: fastTrack } }),
    instance_info: { image_source: `${imageUrl}/image.raw`, image_os_hash_algo: 'sha256', image_os_hash_value: image.sha256 },
  });
  await ok('POST', '/v1/ports', { node_uuid: node.uuid, address: p.nics[0]?.mac, pxe_enabled: true });
  const machine = new AgentMachine(node.uuid, p, path.join(dir, `disk-${i}.img`), api, (u) => t.store.nodes.get(u));
  machine.fastTrack = true;
  machines.push(machine);
  await provision(api, t.store, node.uuid, 'manage', {}, 10_000);
  const n = await provision(api, t.store, node.uuid, 'provide', {}, 20_000);
  expect(n.provision_state, n.last_error ?? '').toBe('available');
  return { uuid: node.uuid, machine };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ingot-fast-track-'));
  images = await serveFiles({ '/image.raw': image.bytes });
  imageUrl = images.url;
  // Conductor-wide fast track is off: the nodes turn it on for themselves (driver_info fast_track).
  harness = await startDeployHarness({ deploy_callback_timeout_s: 20, clean_callback_timeout_s: 20, check_provision_state_interval_s: 0.5 }, { periodics: true });
  ({ t, api } = harness);
}, 30_000);

afterAll(async () => {
  await Promise.allSettled(machines.map((m) => m.close()));
  await harness?.close();
  await images?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('fast track', () => {
  it('keeps the agent running after cleaning and deploys through it without booting the ramdisk again', async () => {
    const { uuid, machine } = await enrollAvailable(1);
    const kept = await t.store.nodes.get(uuid);
    expect(kept.power_state, 'the machine stays on after cleaning').toBe('power on');
    const url = kept.driver_internal_info.agent_url;
    expect(url, 'the agent is still known').toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(kept.driver_internal_info.agent_secret_token).toEqual(expect.any(String));
    expect(machine.agent?.callbackUrl).toBe(url);
    let all = await events(uuid);
    expect(all).toContain('fast track: no agent is running; booting the clean ramdisk');
    expect(all).toContain('fast track: the agent keeps running after cleaning; the machine stays on');
    expect(booted(all, 'clean')).toBe(1);
    const beats = machine.agent!.heartbeats();
    // The agent keeps heartbeating in available (every 0.6–1.2 s with a 2 s heartbeat timeout).
    await waitForNode(t.store, uuid, (n) => n.driver_internal_info.agent_last_heartbeat !== kept.driver_internal_info.agent_last_heartbeat, 5000);
    await expect.poll(() => machine.agent!.heartbeats(), { timeout: 5000 }).toBeGreaterThan(beats);

    const active = await provision(api, t.store, uuid, 'active', { configdrive: { meta_data: { hostname: 'fast-1' } } });
    expect(active.provision_state, active.last_error ?? '').toBe('active');
    all = await events(uuid);
    expect(all).toContain(`fast track: the running agent at ${String(url)} takes the deploy steps; no ramdisk boot`);
    // What bench:lab counts the fast-tracked deployments by.
    expect(all.filter((e) => isRunningAgentEvent(e, 'deploy'))).toHaveLength(1);
    expect(isRunningAgentEvent(runningAgentEvent(String(url), 'clean'), 'deploy')).toBe(false);
    expect(booted(all, 'deploy'), 'no deploy ramdisk boot').toBe(0);
    expect(all.filter((e) => /^deploy step deploy\.\w+ done$/.test(e))).toEqual([
      'deploy step deploy.deploy done', 'deploy step deploy.write_image done', 'deploy step deploy.prepare_instance_boot done',
      'deploy step deploy.tear_down_agent done', 'deploy step deploy.switch_to_tenant_network done', 'deploy step deploy.boot_instance done',
    ]);
    const disk = await readDeployedDisk(machine.disk, image.bytes);
    expect(disk.firstDifference).toBeNull();
    expect(disk.metaData).toMatchObject({ uuid, hostname: 'fast-1' });
    // The deployment ends the agent: it was powered off before the instance booted.
    expect(active.driver_internal_info).not.toHaveProperty('agent_url');
    expect(active.driver_internal_info).not.toHaveProperty('agent_secret_token');

    // Undeploy powers off, so its cleaning boots the ramdisk; the new agent is then kept again.
    const after = await provision(api, t.store, uuid, 'deleted', {}, 20_000);
    expect(after.provision_state, after.last_error ?? '').toBe('available');
    expect(after.power_state).toBe('power on');
    expect(await metadataErased(machine.disk)).toBe(true);
    all = await events(uuid);
    expect(booted(all, 'clean')).toBe(2);
    expect(after.driver_internal_info.agent_url).toEqual(expect.any(String));
  }, 60_000);

  it('boots the ramdisk when the running agent does not answer, saying why', async () => {
    const { uuid, machine } = await enrollAvailable(2);
    const url = String((await t.store.nodes.get(uuid)).driver_internal_info.agent_url);
    // The agent dies behind Ingot's back; the machine stays on (a crashed ramdisk).
    await machine.agent!.stop();
    machine.agent = null;
    const active = await provision(api, t.store, uuid, 'active');
    expect(active.provision_state, active.last_error ?? '').toBe('active');
    const all = await events(uuid);
    const note = all.find((e) => e.startsWith('fast track: the agent at'));
    expect(note).toMatch(new RegExp(`^fast track: the agent at ${url.replace(/\./g, '\\.')} did not answer \\(.+\\); booting the deploy ramdisk$`));
    expect(booted(all, 'deploy')).toBe(1);
    expect((await readDeployedDisk(machine.disk, image.bytes)).firstDifference).toBeNull();
  }, 60_000);

  it('forgets the agent when the machine is powered off through the API', async () => {
    const { uuid } = await enrollAvailable(3);
    await ok('PUT', `/v1/nodes/${uuid}/states/power`, { target: 'power off' });
    const off = await waitForNode(t.store, uuid, (n) => n.power_state === 'power off' && n.reservation === null);
    expect(off.driver_internal_info).not.toHaveProperty('agent_url');
    expect(off.driver_internal_info).not.toHaveProperty('agent_secret_token');
    const active = await provision(api, t.store, uuid, 'active');
    expect(active.provision_state, active.last_error ?? '').toBe('active');
    const all = await events(uuid);
    expect(all).toContain('fast track: no agent is running; booting the deploy ramdisk');
    expect(booted(all, 'deploy')).toBe(1);
  }, 60_000);

  it('is off for a node whose driver_info says false, and a value that is no boolean fails validation', async () => {
    const { uuid } = await enrollAvailable(4, 'false');
    const n = await t.store.nodes.get(uuid);
    expect(n.power_state, 'cleaning powers the machine off').toBe('power off');
    expect(n.driver_internal_info).not.toHaveProperty('agent_url');
    expect((await events(uuid)).filter((e) => e.startsWith('fast track'))).toEqual([]);

    await ok('PATCH', `/v1/nodes/${uuid}`, [{ op: 'replace', path: '/driver_info/fast_track', value: 'often' }]);
    const validated = await ok<Record<string, { result: boolean; reason: string | null }>>('GET', `/v1/nodes/${uuid}/validate`);
    expect(validated.deploy).toEqual({ result: false, reason: expect.stringMatching(/Invalid boolean value for driver_info fast_track: "often"/) });
    const refused = await call(api, 'PUT', `/v1/nodes/${uuid}/states/provision`, { target: 'active' });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toMatch(/driver_info fast_track/);
  }, 60_000);
});
