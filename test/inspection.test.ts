/**
 * In-band inspection end to end: a node is inspected through the API (one-time network boot, reboot,
 * inspect wait), then the real bundled agent (dist/ingot-agent.cjs, simulated hardware) posts its data to
 * `POST /v1/continue_inspection` of a running `ingot serve`; the node ends manageable with its properties,
 * ports and stored inventory. Then the failures: a ramdisk error, bad data, an unknown machine.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileInventory } from '../src/agent/hardware/simulated.js';
import { simulatedProfile } from '../src/bmc/profiles.js';
import { api, apiOk, waitNode } from './support/http.js';
import { REPO_ROOT, startServer, type RunningServer } from './support/server.js';

const run = promisify(execFile);
const AGENT = path.join(REPO_ROOT, 'dist', 'ingot-agent.cjs');

type NodeView = Record<string, unknown> & { uuid: string; provision_state: string; last_error: string | null; properties: Record<string, unknown>; reservation: string | null };

let server: RunningServer;
let dir: string;

beforeAll(async () => {
  server = await startServer();
  dir = await mkdtemp(path.join(tmpdir(), 'ingot-inspection-'));
}, 60_000);
afterAll(async () => {
  await server?.dispose();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A fake-hardware node inspected in band, waiting for its agent, with the BMC address the profile's machine reports. */
async function waitingNode(name: string, bmc: string): Promise<NodeView> {
  await apiOk(server.url, 'POST', '/v1/nodes', { driver: 'fake-hardware', name, inspect_interface: 'agent', driver_info: { ipmi_address: bmc } });
  await apiOk(server.url, 'PUT', `/v1/nodes/${name}/states/provision`, { target: 'manage' });
  await waitNode<NodeView>(server.url, name, (n) => n.provision_state === 'manageable' && n.reservation === null);
  await apiOk(server.url, 'PUT', `/v1/nodes/${name}/states/provision`, { target: 'inspect' });
  const n = await waitNode<NodeView>(server.url, name, (x) => x.provision_state === 'inspect wait' && x.reservation === null);
  expect(n.power_state).toBe('power on');
  return n;
}

describe('in-band inspection with the Ingot agent', () => {
  it('the agent reports, and the node ends manageable with properties, ports and its inventory', async () => {
    const profile = simulatedProfile(2, 'insp');
    const node = await waitingNode('insp-0', '10.20.0.2');
    const profileFile = path.join(dir, 'profile.json');
    await writeFile(profileFile, JSON.stringify(profile));
    const pxe = profile.nics[0]?.mac as string;
    const { stdout, stderr } = await run(process.execPath, [
      AGENT, `--inspection-callback-url=${server.url}/v1/continue_inspection`, '--hardware-manager=simulated',
      `--simulated-profile=${profileFile}`, '--simulated-bmc-address=10.20.0.2', `--BOOTIF=01-${pxe.replaceAll(':', '-')}`,
    ], { timeout: 60_000, cwd: dir });
    expect(`${stdout}${stderr}`).toMatch(/202|posted|accepted/i);

    const done = await waitNode<NodeView>(server.url, 'insp-0', (n) => n.provision_state === 'manageable' && n.reservation === null, 30_000);
    expect(done.last_error).toBeNull();
    expect(done.power_state).toBe('power off');
    expect(done.properties).toMatchObject({ cpus: profile.cpu.count, memory_mb: profile.memory_mib, cpu_arch: 'x86_64' });
    expect(done.properties.local_gb).toBeGreaterThan(0);
    expect(String(done.properties.capabilities)).toContain(`boot_mode:${profile.boot_mode}`);
    const ports = await apiOk<{ ports: { address: string; pxe_enabled: boolean }[] }>(server.url, 'GET', `/v1/ports/detail?node=${node.uuid}`);
    expect(ports.ports.map((p) => p.address)).toEqual([pxe]);
    const inv = await apiOk<{ inventory: { cpu: { count: number }; interfaces: unknown[] }; plugin_data: Record<string, unknown> }>(server.url, 'GET', '/v1/nodes/insp-0/inventory');
    expect(inv.inventory.cpu.count).toBe(profile.cpu.count);
    expect(inv.inventory.interfaces).toHaveLength(profile.nics.length);
    const history = await apiOk<{ history: { event: string }[] }>(server.url, 'GET', '/v1/nodes/insp-0/history');
    expect(history.history.some((h) => /inventory processed in [\d.]+ ms/.test(h.event))).toBe(true);
  }, 120_000);

  it('a ramdisk error ends in inspect failed with the agent’s message', async () => {
    const profile = simulatedProfile(1, 'insp-err');
    await waitingNode('insp-err', '10.20.0.3');
    const r = await api(server.url, 'POST', '/v1/continue_inspection', { inventory: profileInventory(profile, { bmcAddress: '10.20.0.3' }), error: 'the disk controller did not answer' });
    expect(r.status).toBe(202);
    const n = await waitNode<NodeView>(server.url, 'insp-err', (x) => x.provision_state === 'inspect failed' && x.reservation === null, 30_000);
    expect(n.last_error).toMatch(/the disk controller did not answer/);
  }, 60_000);

  it('refuses bad data and unknown machines with clear errors, changing nothing', async () => {
    const bad = await api<{ error_message: string }>(server.url, 'POST', '/v1/continue_inspection', { inventory: { interfaces: [{ name: 'eth0', mac_address: 'zz' }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error_message).toMatch(/inventory/);
    const notJson = await fetch(`${server.url}/v1/continue_inspection`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"inventory": ' });
    expect(notJson.status).toBe(400);
    const stranger = await api<{ error_message: string }>(server.url, 'POST', '/v1/continue_inspection', { inventory: profileInventory(simulatedProfile(7, 'nobody'), { bmcAddress: '10.99.0.1' }) });
    expect(stranger.status).toBe(404);
    expect(stranger.body.error_message).toMatch(/No node being inspected matches the inspection data/);
  }, 60_000);
});
