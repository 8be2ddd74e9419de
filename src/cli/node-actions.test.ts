import { afterEach, describe, expect, it } from 'vitest';
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { envelope, runIngot, startFakeIronic } from './fake-ironic.test-support.js';
import type { FakeIronic } from './fake-ironic.test-support.js';

let server: FakeIronic | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Snap = Record<string, unknown>;

/** A node whose state advances by one snapshot per GET (the last one repeats); PUTs get 202. */
async function advancingNode(snaps: Snap[]): Promise<FakeIronic> {
  let i = 0;
  server = await startFakeIronic((req) => {
    if (req.method === 'GET') {
      const snap = snaps[Math.min(i, snaps.length - 1)]!;
      i += 1;
      return { body: { uuid: 'u-1', name: 'node-1', last_error: null, ...snap } };
    }
    return { status: 202 };
  });
  return server;
}

const prov = (provision_state: string, target_provision_state: string | null, t = provision_state): Snap => ({
  provision_state,
  target_provision_state,
  provision_updated_at: t,
});

describe('provision verbs', () => {
  it('deploy --wait: PUTs the verb with the config drive, then prints each state change with elapsed time', async () => {
    const s = await advancingNode([
      prov('available', null),
      prov('deploying', 'active'),
      prov('wait call-back', 'active'),
      prov('wait call-back', 'active'),
      prov('deploying', 'active', 'deploying-2'),
      prov('active', null),
    ]);
    const r = await runIngot(['node', 'deploy', 'node-1', '--config-drive', '{"meta_data": {"hostname": "h"}}', '--wait'], { INGOT_URL: s.url });
    expect(r.exitCode).toBe(0);
    const calls = s.requests.map((q) => `${q.method} ${q.path}${q.query['fields'] ? '?fields' : ''}`);
    expect(calls).toEqual([
      'GET /v1/nodes/node-1?fields',
      'PUT /v1/nodes/node-1/states/provision',
      ...Array(5).fill('GET /v1/nodes/node-1?fields'),
    ]);
    expect(s.requests[0]!.query['fields']).toBe('uuid,name,provision_state,target_provision_state,provision_updated_at,power_state,target_power_state,last_error');
    expect(s.requests[1]!.body).toEqual({ target: 'deploy', configdrive: { meta_data: { hostname: 'h' } } });
    // Virtual clock: polls after 0, 100, 250, 475, 813 ms of sleeping.
    expect(r.slept).toEqual([100, 150, 225, 338]);
    expect(r.stderr).toBe(
      [
        'node-1: available → deploying (0.0 s)',
        'node-1: deploying → wait call-back (0.1 s)',
        'node-1: wait call-back → deploying (0.5 s)',
        'node-1: deploying → active (0.8 s)',
        'node-1: active after 0.8 s',
        '',
      ].join('\n'),
    );
  });

  it('ends with exit 1 and last_error when the node fails', async () => {
    const s = await advancingNode([
      prov('manageable', null),
      prov('cleaning', 'available'),
      { ...prov('clean failed', 'available'), last_error: 'Erasing disk /dev/sda failed' },
    ]);
    const r = await runIngot(['node', 'provide', '--wait', '60', 'node-1'], { INGOT_URL: s.url });
    expect(s.requests[1]!.body).toEqual({ target: 'provide' });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(
      'node-1: manageable → cleaning (0.0 s)\n' +
        'node-1: cleaning → clean failed (0.1 s)\n' +
        'ingot: node-1: clean failed after 0.1 s: Erasing disk /dev/sda failed\n',
    );
  });

  it('times out with exit 1 naming the state the node is stuck in', async () => {
    const s = await advancingNode([prov('available', null), prov('wait call-back', 'active')]);
    const r = await runIngot(['node', 'deploy', 'node-1', '--wait', '2'], { INGOT_URL: s.url });
    expect(r.exitCode).toBe(1);
    expect(r.stderr.trim().split('\n').at(-1)).toBe('ingot: node-1: timed out after 2.1 s in wait call-back (heading for active)');
    expect(r.slept.every((ms) => ms <= 1000)).toBe(true);
  });

  it('reads `--wait NODE` as waiting forever on NODE; abort accepts the failure state it leads to', async () => {
    const s = await advancingNode([prov('clean wait', 'available'), prov('clean failed', 'available')]);
    const r = await runIngot(['node', 'abort', '--wait', 'node-1'], { INGOT_URL: s.url });
    expect(s.requests[1]!.path).toBe('/v1/nodes/node-1/states/provision');
    expect(s.requests[1]!.body).toEqual({ target: 'abort' });
    expect(r.stderr).toBe('node-1: clean wait → clean failed (0.0 s)\nnode-1: clean failed after 0.0 s\n');
    expect(r.exitCode).toBe(0);
  });

  it('does not take a settled-looking first poll for the result before the node moved', async () => {
    const s = await advancingNode([prov('available', null), prov('available', null), prov('active', null, 'later')]);
    const r = await runIngot(['node', 'deploy', 'node-1', '--wait'], { INGOT_URL: s.url });
    expect(r.stderr).toBe('node-1: available → active (0.1 s)\nnode-1: active after 0.1 s\n');
  });

  it('clean sends steps from a file, rescue its password, and old microversions get legacy verbs', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ingot-cli-'));
    try {
      const steps = [{ interface: 'deploy', step: 'erase_devices_metadata' }];
      await writeFile(join(dir, 'steps.json'), JSON.stringify(steps));
      server = await startFakeIronic(() => ({ status: 202 }));
      const env = { INGOT_URL: server.url };
      expect((await runIngot(['node', 'clean', 'n', '--clean-steps', `@${join(dir, 'steps.json')}`, '--disable-ramdisk'], env)).exitCode).toBe(0);
      expect((await runIngot(['node', 'rescue', 'n', '--rescue-password', 'pw'], env)).exitCode).toBe(0);
      expect((await runIngot(['node', 'undeploy', 'n', '--os-baremetal-api-version', '1.72'], env)).exitCode).toBe(0);
      expect((await runIngot(['node', 'deploy', 'n', '--os-baremetal-api-version', '1.50'], env)).exitCode).toBe(0);
      expect((await runIngot(['node', 'service', 'n', '--service-steps', '[]'], env)).exitCode).toBe(0);
      const missing = await runIngot(['node', 'clean', 'n'], env);
      expect(missing.exitCode).toBe(1);
      expect(missing.stderr).toBe('ingot: clean needs --clean-steps\n');
      expect(server.requests.map((q) => [q.headers['x-openstack-ironic-api-version'], q.body])).toEqual([
        ['latest', { target: 'clean', clean_steps: steps, disable_ramdisk: true }],
        ['latest', { target: 'rescue', rescue_password: 'pw' }],
        ['1.72', { target: 'deleted' }],
        ['1.50', { target: 'active' }],
        ['latest', { target: 'service', service_steps: [] }],
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reports an invalid transition from the envelope and does not wait', async () => {
    server = await startFakeIronic((req) =>
      req.method === 'PUT'
        ? { status: 400, body: envelope('The requested action "deploy" can not be performed on node "n" while it is in state "enroll".') }
        : { body: { uuid: 'u', provision_state: 'enroll', target_provision_state: null } },
    );
    const r = await runIngot(['node', 'deploy', 'n', '--wait'], { INGOT_URL: server.url });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe('ingot: The requested action "deploy" can not be performed on node "n" while it is in state "enroll". (HTTP 400)\n');
    expect(server.requests.map((q) => q.method)).toEqual(['GET', 'PUT']);
  });
});

describe('power', () => {
  it('reboot --soft sends the soft target and timeout; --wait follows the power state', async () => {
    const pw = (power_state: string, target_power_state: string | null): Snap => ({ power_state, target_power_state, provision_state: 'active' });
    const s = await advancingNode([pw('power on', null), pw('power on', 'soft rebooting'), pw('power off', 'soft rebooting'), pw('power on', null)]);
    const r = await runIngot(['node', 'power', 'reboot', 'node-1', '--soft', '--power-timeout', '30', '--wait'], { INGOT_URL: s.url });
    expect(s.requests[1]!.method).toBe('PUT');
    expect(s.requests[1]!.path).toBe('/v1/nodes/node-1/states/power');
    expect(s.requests[1]!.body).toEqual({ target: 'soft rebooting', timeout: 30 });
    expect(r.stderr).toBe('node-1: power on → power off (0.1 s)\nnode-1: power off → power on (0.3 s)\nnode-1: power on after 0.3 s\n');
    expect(r.exitCode).toBe(0);
  });

  it('power on/off send plain targets and do not poll without --wait', async () => {
    server = await startFakeIronic(() => ({ status: 202 }));
    await runIngot(['node', 'power', 'on', 'a'], { INGOT_URL: server.url });
    await runIngot(['node', 'power', 'off', 'b'], { INGOT_URL: server.url });
    expect(server.requests.map((q) => [q.method, q.path, q.body])).toEqual([
      ['PUT', '/v1/nodes/a/states/power', { target: 'power on' }],
      ['PUT', '/v1/nodes/b/states/power', { target: 'power off' }],
    ]);
  });

  it('a power failure ends the wait with exit 1 and last_error', async () => {
    const s = await advancingNode([
      { power_state: 'power off', target_power_state: null },
      { power_state: 'error', target_power_state: null, last_error: 'BMC 10.0.0.9 refused the credentials' },
    ]);
    const r = await runIngot(['node', 'power', 'on', 'node-1', '--wait', '5'], { INGOT_URL: s.url });
    expect(r.exitCode).toBe(1);
    expect(r.stderr.trim().split('\n').at(-1)).toBe('ingot: node-1: error after 0.0 s: BMC 10.0.0.9 refused the credentials');
  });
});
