import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { InspectorConfig } from '../../config/inspector.js';
import { openStore } from '../../db/open-store.js';
import type { Store } from '../../db/store.js';
import { deadUrl, startFakeInspector, type FakeInspectorService } from '../../drivers/inspector/fake-inspector.test-support.js';
import { silentLogger } from '../../shared/logger.js';
import { createConductor, type Conductor } from '../conductor.js';
import { waitForState } from '../conductor.test-support.js';
import { checkInspectorStatusOnce } from './inspector-status.js';

let fake: FakeInspectorService;
beforeAll(async () => {
  fake = await startFakeInspector();
});
afterAll(async () => {
  await fake?.close();
});

interface Env {
  store: Store;
  conductor: Conductor;
  close(): Promise<void>;
}
let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

async function start(inspector: Partial<InspectorConfig>): Promise<Env> {
  const dir = mkdtempSync(join(tmpdir(), 'ingot-inspector-status-'));
  const store = await openStore({ dataDir: dir });
  const conductor = createConductor({ store, logger: silentLogger(), config: { hostname: 'test-conductor' }, inspector, periodics: false });
  await conductor.start();
  env = {
    store,
    conductor,
    async close() {
      await conductor.stop({ timeoutMs: 2000 }).catch(() => undefined);
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return env;
}

/** A fake-hardware node with the `inspector` interface, inspected until it waits on the inspector. */
async function waiting(e: Env, name: string, inspectInterface = 'inspector'): Promise<string> {
  const c = e.conductor.client;
  const node = await c.createNode({ driver: 'fake-hardware', name, inspect_interface: inspectInterface });
  await c.doProvisionAction(name, 'manage', {});
  await waitForState(e.store, name, 'manageable');
  await c.doProvisionAction(name, 'inspect', {});
  await waitForState(e.store, name, 'inspect wait');
  return node.uuid;
}

const events = async (e: Env, name: string) => (await e.store.history.list((await e.store.nodes.get(name)).id, { limit: 100 })).map((h) => h.event);

describe('inspector status periodic', () => {
  it('leaves a running introspection alone, then finishes it: inventory stored, powered off, manageable', async () => {
    const e = await start({ service_url: fake.url });
    const uuid = await waiting(e, 'ok-0');
    expect(fake.nodes.get(uuid)).toMatchObject({ finished: false });
    expect((await e.store.nodes.get(uuid)).power_state).toBe('power on');

    expect(await checkInspectorStatusOnce(e.conductor.context)).toEqual([{ uuid, outcome: 'running' }]);
    expect((await e.store.nodes.get(uuid)).provision_state).toBe('inspect wait');

    fake.nodes.set(uuid, { finished: true, error: null, data: { inventory: { cpu: { count: 8 } }, root_disk: { name: '/dev/sda' } } });
    expect(await checkInspectorStatusOnce(e.conductor.context)).toEqual([{ uuid, outcome: 'finished' }]);
    const done = await waitForState(e.store, uuid, 'manageable');
    expect(done.last_error).toBeNull();
    expect(done.power_state).toBe('power off');
    expect(done.inspection_finished_at).not.toBeNull();
    expect(await e.store.inventories.get(done.id)).toMatchObject({ inventory: { cpu: { count: 8 } }, plugin_data: { root_disk: { name: '/dev/sda' } } });
    expect((await events(e, uuid)).some((t) => t.includes(`ironic-inspector at ${fake.url} finished the introspection`))).toBe(true);
  });

  it("fails the inspection with the inspector's error", async () => {
    const e = await start({ service_url: fake.url });
    const uuid = await waiting(e, 'err-0');
    fake.nodes.set(uuid, { finished: true, error: 'Preprocessing hook ramdisk_error: Ramdisk reported error: no disks\nLook up error: none', state: 'error' });
    expect(await checkInspectorStatusOnce(e.conductor.context)).toEqual([{ uuid, outcome: 'failed' }]);
    const failed = await waitForState(e.store, uuid, 'inspect failed');
    expect(failed.last_error).toBe(
      'Failed to inspect hardware. Reason: ironic-inspector inspection failed: Preprocessing hook ramdisk_error: Ramdisk reported error: no disks; Look up error: none. Fix the cause, then "inspect" again or "manage" the node.',
    );
    expect(failed.power_state).toBe('power off');
  });

  it('fails an introspection the inspector no longer knows', async () => {
    const e = await start({ service_url: fake.url });
    const uuid = await waiting(e, 'lost-0');
    fake.nodes.delete(uuid);
    await checkInspectorStatusOnce(e.conductor.context);
    const failed = await waitForState(e.store, uuid, 'inspect failed');
    expect(failed.last_error).toContain(`ironic-inspector at ${fake.url} has no introspection of this node (HTTP 404)`);
  });

  it('keeps waiting while the inspector cannot answer, and records that once per streak', async () => {
    const e = await start({ service_url: fake.url });
    const uuid = await waiting(e, 'down-0');
    fake.failWith = { status: 503, message: 'Service Unavailable' };
    try {
      expect(await checkInspectorStatusOnce(e.conductor.context)).toEqual([{ uuid, outcome: 'unreachable' }]);
      expect(await checkInspectorStatusOnce(e.conductor.context)).toEqual([{ uuid, outcome: 'unreachable' }]);
    } finally {
      fake.failWith = null;
    }
    expect((await e.store.nodes.get(uuid)).provision_state).toBe('inspect wait');
    const warnings = (await events(e, uuid)).filter((t) => t.includes('could not read the introspection status'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('answered HTTP 503: Service Unavailable');
    expect(await checkInspectorStatusOnce(e.conductor.context)).toEqual([{ uuid, outcome: 'running' }]);
  });

  it('ignores nodes inspected by other interfaces', async () => {
    const e = await start({ service_url: fake.url });
    await waiting(e, 'agent-0', 'agent');
    fake.requests.length = 0;
    expect(await checkInspectorStatusOnce(e.conductor.context)).toEqual([]);
    expect(fake.requests).toEqual([]);
  });
});

describe('inspector interface in the conductor', () => {
  it('abort cancels the introspection at the inspector', async () => {
    const e = await start({ service_url: fake.url });
    const uuid = await waiting(e, 'abort-0');
    fake.requests.length = 0;
    await e.conductor.client.doProvisionAction(uuid, 'abort', {});
    const n = await waitForState(e.store, uuid, 'inspect failed');
    expect(n.last_error).toMatch(/By request, the inspection was aborted/);
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`POST /v1/introspection/${uuid}/abort`]);
  });

  it('abort fails and the node keeps waiting when the inspector refuses', async () => {
    const e = await start({ service_url: fake.url });
    const uuid = await waiting(e, 'abort-1');
    fake.failWith = { status: 409, message: 'Node is locked, please, retry later' };
    try {
      await expect(e.conductor.client.doProvisionAction(uuid, 'abort', {})).rejects.toThrow(/answered HTTP 409: Node is locked, please, retry later/);
    } finally {
      fake.failWith = null;
    }
    const n = await waitForState(e.store, uuid, 'inspect wait');
    expect(n.reservation).toBeNull();
  });

  it('an unreachable inspector fails the inspection with a clear last_error', async () => {
    const url = await deadUrl();
    const e = await start({ service_url: url });
    const c = e.conductor.client;
    const node = await c.createNode({ driver: 'fake-hardware', name: 'dead-0', inspect_interface: 'inspector' });
    await c.doProvisionAction('dead-0', 'manage', {});
    await waitForState(e.store, 'dead-0', 'manageable');
    await c.doProvisionAction('dead-0', 'inspect', {});
    const n = await waitForState(e.store, 'dead-0', 'inspect failed');
    expect(n.last_error).toMatch(
      new RegExp(`^Failed to inspect hardware\\. Reason: ironic-inspector at ${url} \\(POST /v1/introspection/${node.uuid}\\) is unreachable: .*ECONNREFUSED.*Check that the service runs and \\[inspector\\] service_url points at it\\.`),
    );
  });

  it('refuses to inspect when no inspector is configured', async () => {
    const e = await start({});
    const c = e.conductor.client;
    await c.createNode({ driver: 'fake-hardware', name: 'none-0', inspect_interface: 'inspector' });
    await c.doProvisionAction('none-0', 'manage', {});
    await waitForState(e.store, 'none-0', 'manageable');
    await expect(c.doProvisionAction('none-0', 'inspect', {})).rejects.toThrow(/inspect: The "inspector" inspect interface needs an ironic-inspector service, but \[inspector\] service_url is not set/);
    expect((await e.store.nodes.get('none-0')).provision_state).toBe('manageable');
  });
});
