import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleTask } from '../interfaces/sample-task.test-support.js';
import { inspectConformance } from '../interfaces/inspect.case.js';
import { IngotError } from '../../shared/errors.js';
import { INSPECTOR_API_VERSION, InspectorClient, normalizeBaseUrl } from './client.js';
import { inspectorInspect, isInspectorInspect } from './inspect.js';
import { deadUrl, startFakeInspector, type FakeInspectorService } from './fake-inspector.test-support.js';

let fake: FakeInspectorService;
beforeAll(async () => {
  fake = await startFakeInspector();
});
afterAll(async () => {
  await fake?.close();
});

const UUID = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123';

inspectConformance('inspector', () => inspectorInspect({ service: new InspectorClient({ url: fake.url }) }));

async function rejection(p: Promise<unknown>): Promise<IngotError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(IngotError);
  return err as IngotError;
}

describe('inspector inspect interface', () => {
  it('asks the inspector not to manage boot, then boots the ramdisk itself', async () => {
    const iface = inspectorInspect({ service: new InspectorClient({ url: `${fake.url}/v1/` }) });
    expect(isInspectorInspect(iface)).toBe(true);
    fake.requests.length = 0;
    const task = sampleTask({ uuid: UUID, provision_state: 'inspecting', power_state: 'power off' });
    expect(await iface.inspectHardware(task)).toBe('wait');
    expect(fake.requests).toEqual([{ method: 'POST', path: `/v1/introspection/${UUID}`, query: '?manage_boot=false', version: INSPECTOR_API_VERSION }]);
    expect(fake.nodes.get(UUID)?.finished).toBe(false);
    expect(task.node).toMatchObject({ power_state: 'power on', driver_internal_info: { agent_ramdisk: 'inspect' } });
    expect(task.records.map((r) => r.event)).toEqual(['inspect ramdisk prepared by the fake boot interface; machine booting from the network']);
  });

  it('fails validation with the setting to fix when no service is configured', async () => {
    const iface = inspectorInspect({ service: null });
    const err = await rejection(Promise.resolve().then(() => iface.validate(sampleTask())));
    expect(err.code).toBe('InvalidParameterValue');
    expect(err.message).toMatch(/\[inspector\] service_url is not set/);
    await expect(iface.inspectHardware(sampleTask())).rejects.toThrow(/service_url/);
  });

  it('aborts at the inspector; an introspection the inspector does not know is nothing to abort', async () => {
    const iface = inspectorInspect({ service: new InspectorClient({ url: fake.url }) });
    fake.nodes.set(UUID, { finished: false, error: null });
    await iface.abort(sampleTask({ uuid: UUID }));
    expect(fake.nodes.get(UUID)).toMatchObject({ finished: true, error: 'Canceled by operator' });
    await expect(iface.abort(sampleTask({ uuid: 'a0000000-0000-4000-8000-000000000000' }))).resolves.toBeUndefined();
  });

  it('is not mistaken for other inspect interfaces', () => {
    expect(isInspectorInspect({ name: 'agent', properties: {}, validate: () => undefined, inspectHardware: async () => 'wait' })).toBe(false);
  });
});

describe('InspectorClient', () => {
  it('reads an introspection status; null for a node the inspector does not know', async () => {
    const client = new InspectorClient({ url: fake.url });
    fake.nodes.set(UUID, { finished: true, error: 'Ramdisk reported error: disk gone', state: 'error' });
    expect(await client.status(UUID)).toEqual({
      uuid: UUID, finished: true, error: 'Ramdisk reported error: disk gone', state: 'error', started_at: '2026-01-01T00:00:00', finished_at: '2026-01-01T00:01:00',
    });
    expect(await client.status('b0000000-0000-4000-8000-000000000000')).toBeNull();
  });

  it('fetches processed data; null when the inspector stores none', async () => {
    const client = new InspectorClient({ url: fake.url });
    fake.nodes.set(UUID, { finished: true, error: null, data: { inventory: { cpu: { count: 4 } }, root_disk: { size: 1 } } });
    expect(await client.data(UUID)).toEqual({ inventory: { cpu: { count: 4 } }, root_disk: { size: 1 } });
    fake.nodes.set(UUID, { finished: true, error: null });
    expect(await client.data(UUID)).toBeNull();
  });

  it("names the request and quotes the inspector's error message", async () => {
    const client = new InspectorClient({ url: fake.url });
    fake.failWith = { status: 400, message: 'Invalid provision state for introspection: "available"' };
    try {
      const err = await rejection(client.start(UUID, { manageBoot: false }));
      expect(err.code).toBe('DriverOperationError');
      expect(err.message).toBe(`ironic-inspector at ${fake.url} (POST /v1/introspection/${UUID}) answered HTTP 400: Invalid provision state for introspection: "available"`);
    } finally {
      fake.failWith = null;
    }
  });

  it('says the service is unreachable, with the socket error', async () => {
    const url = await deadUrl();
    const err = await rejection(new InspectorClient({ url }).start(UUID, { manageBoot: false }));
    expect(err.code).toBe('DriverOperationError');
    expect(err.message).toMatch(new RegExp(`^ironic-inspector at ${url} \\(POST /v1/introspection/${UUID}\\) is unreachable: .*ECONNREFUSED.*service_url`));
  });

  it('gives up after its timeout, and at once when the caller aborts', async () => {
    fake.hang = true;
    try {
      const err = await rejection(new InspectorClient({ url: fake.url, timeoutMs: 300 }).status(UUID));
      expect(err.message).toMatch(/\(GET \/v1\/introspection\/[^)]+\) did not answer within 0\.3 s\. Check that the service runs/);
      const ac = new AbortController();
      const pending = new InspectorClient({ url: fake.url, timeoutMs: 60_000 }).status(UUID, ac.signal);
      ac.abort(new Error('conductor stopping'));
      await expect(pending).rejects.toThrow('conductor stopping');
    } finally {
      fake.hang = false;
    }
  });

  it('normalizes the base URL and refuses what is not http(s)', () => {
    expect(normalizeBaseUrl('http://10.0.0.5:5050/')).toBe('http://10.0.0.5:5050');
    expect(normalizeBaseUrl('http://10.0.0.5:5050/v1')).toBe('http://10.0.0.5:5050');
    expect(normalizeBaseUrl('https://h/inspector/v1/')).toBe('https://h/inspector');
    expect(() => normalizeBaseUrl('ftp://h')).toThrow(/http:\/\/ or https:\/\//);
    expect(() => normalizeBaseUrl('not a url')).toThrow(/not a valid URL/);
  });
});
