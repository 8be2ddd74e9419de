import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../shared/logger.js';
import { buildApp } from '../app.js';
import { nodeContext } from '../resolve.js';
import { nodePageJson, planNode } from '../serialize/node.js';
import { createTestApi, testApiConfig, version, type TestApi } from '../app.test-support.js';

let t: TestApi;
/** The same store and conductor served without the render cache. */
let plain: FastifyInstance;
beforeAll(async () => {
  t = await createTestApi();
  plain = buildApp({ store: t.store, conductor: t.client, config: testApiConfig({ node_render_cache_chars: 0 }), logger: silentLogger() });
  await plain.ready();
});
afterAll(async () => {
  await plain?.close();
  await t?.close();
});
beforeEach(async () => {
  for (const n of await t.store.nodes.list({}, { limit: 0 })) await t.store.nodes.delete(n.uuid);
});
afterEach(() => {
  vi.restoreAllMocks();
});

async function seed(count: number, chassisId?: number): Promise<string[]> {
  const uuids: string[] = [];
  for (let i = 0; i < count; i++) {
    const n = await t.store.nodes.create({
      driver: 'fake-hardware', name: `rc${i}`, provision_state: i % 2 ? 'available' : 'inspect wait', chassis_id: i === 1 ? (chassisId ?? null) : null,
      driver_info: { ipmi_password: `pw${i}`, ipmi_address: `10.0.0.${i}` }, properties: { cpus: 8, memory_mb: 1024 * i }, extra: { i, 'ü': 'é' },
      instance_info: { image_source: 'http://x/img', configdrive: 'secret' }, driver_internal_info: { agent_secret_token: 't' },
    });
    uuids.push(n.uuid);
  }
  return uuids;
}

/** The page as the serializer renders it from nodes read now, for `minor`, `host` and the list options. */
async function expected(minor: number, host: string, opts: { limit?: number; next?: string; marker?: string } = {}): Promise<string> {
  const nodes = await t.store.nodes.list({}, { limit: opts.limit ?? 0, marker: opts.marker });
  const ctx = await nodeContext({ store: t.store, conductor: t.client } as never, `http://${host}`, minor, nodes);
  return [...nodePageJson(nodes, planNode(minor, undefined), ctx, opts.next)].join('');
}

async function list(url: string, minor: number, host = 'h', app: FastifyInstance = t.app): Promise<string> {
  const res = await app.inject({ url, headers: { ...version(`1.${minor}`), host } });
  expect(res.statusCode, res.body).toBe(200);
  return res.body;
}

describe('detailed node lists through the render cache', () => {
  it('answers the bytes the serializer renders, cold and warm, the same as without the cache', async () => {
    const ch = await t.store.chassis.create({ description: 'rack' });
    await seed(5, ch.id);
    await t.store.nodes.setTraits((await t.store.nodes.get('rc2')).id, ['CUSTOM_B', 'CUSTOM_A']);
    const getMany = vi.spyOn(t.store.nodes, 'getMany');
    const want = await expected(87, 'h');
    expect(want).toContain(ch.uuid);
    const cold = await list('/v1/nodes?detail=True', 87);
    expect(cold).toBe(want);
    expect(getMany).toHaveBeenCalledTimes(1);
    expect(getMany.mock.calls[0]![0]).toHaveLength(5);
    // Texts are kept from the second sighting of an unchanged node on.
    expect(await list('/v1/nodes/detail', 87)).toBe(want);
    expect(getMany).toHaveBeenCalledTimes(2);
    const warm = await list('/v1/nodes?detail=True', 87);
    expect(warm).toBe(want);
    expect(await list('/v1/nodes/detail', 87)).toBe(want);
    // Warm lists read no node whole.
    expect(getMany).toHaveBeenCalledTimes(2);
    expect(await list('/v1/nodes?detail=True', 87, 'h', plain)).toBe(want);
    expect(JSON.parse(warm).nodes[0].driver_info.ipmi_password).toBe('******');
    expect(JSON.parse(warm).nodes[0]).not.toHaveProperty('version');
  });

  it('never shows the row version', async () => {
    const [uuid] = await seed(1);
    await t.store.nodes.update(uuid!, { description: 'v1' });
    const one = await t.app.inject({ url: `/v1/nodes/${uuid}`, headers: version('1.87') });
    expect(one.json()).not.toHaveProperty('version');
    const patched = await t.app.inject({
      method: 'PATCH', url: `/v1/nodes/${uuid}`, headers: version('1.87'), payload: [{ op: 'replace', path: '/description', value: 'v2' }],
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).not.toHaveProperty('version');
    expect((await t.app.inject({ url: '/v1/nodes?fields=uuid,version', headers: version('1.87') })).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/v1/nodes?sort_key=version', headers: version('1.87') })).statusCode).toBe(400);
    const patchVersion = await t.app.inject({
      method: 'PATCH', url: `/v1/nodes/${uuid}`, headers: version('1.87'), payload: [{ op: 'replace', path: '/version', value: 0 }],
    });
    expect(patchVersion.statusCode).toBe(400);
    expect((await t.store.nodes.get(uuid!)).version).toBe(2);
  });

  it('answers the same bytes for pages mixing kept texts, nodes rendered together and nodes rendered to be kept', async () => {
    const uuids: string[] = [];
    for (let i = 0; i < 45; i++) uuids.push((await t.store.nodes.create({ driver: 'fake-hardware', name: `mix${i}`, extra: { i } })).uuid);
    const want = async () => expected(87, 'h');
    expect(await list('/v1/nodes/detail', 87)).toBe(await want());
    expect(await list('/v1/nodes/detail', 87)).toBe(await want());
    // A run of more than one group of changed nodes between kept ones, and single changed nodes.
    const changed = [0, 3, ...Array.from({ length: 25 }, (_, i) => 10 + i), 44];
    for (const i of changed) await t.store.nodes.update(uuids[i]!, { description: `changed ${i}` });
    const getMany = vi.spyOn(t.store.nodes, 'getMany');
    for (let round = 0; round < 3; round++) {
      const body = await list('/v1/nodes/detail', 87);
      expect(body, `round ${round}`).toBe(await want());
      expect(await list('/v1/nodes/detail', 87, 'h', plain)).toBe(body);
      if (round === 0) expect(body).toContain('"description":"changed 12"');
    }
    // Read as changed, then kept, then served from the cache.
    expect(getMany.mock.calls.map((c) => c[0].length)).toEqual([changed.length, changed.length]);
    const paged = await list('/v1/nodes/detail?limit=7&marker=' + uuids[8], 87);
    expect(paged).toBe(await expected(87, 'h', { limit: 7, marker: uuids[8], next: `http://h/v1/nodes/detail?limit=7&marker=${uuids[15]}` }));
  });

  it('renders disable_power_off from 1.95 on, byte for byte as the serializer, and follows a change of it', async () => {
    const uuids = await seed(3);
    await t.store.nodes.update(uuids[1]!, { disable_power_off: true });
    for (const minor of [94, 95, 96]) {
      const want = await expected(minor, 'h');
      expect(want.includes('"disable_power_off":'), `1.${minor}`).toBe(minor >= 95);
      for (let round = 0; round < 3; round++) expect(await list('/v1/nodes/detail', minor), `1.${minor} round ${round}`).toBe(want);
      expect(await list('/v1/nodes/detail', minor, 'h', plain)).toBe(want);
    }
    expect(JSON.parse(await list('/v1/nodes/detail', 96)).nodes.map((n: { disable_power_off: boolean }) => n.disable_power_off)).toEqual([false, true, false]);
    await t.store.nodes.update(uuids[1]!, { disable_power_off: false });
    const after = await list('/v1/nodes/detail', 96);
    expect(after).toBe(await expected(96, 'h'));
    expect(JSON.parse(after).nodes[1].disable_power_off).toBe(false);
  });

  it('pages with the same next links and markers', async () => {
    const uuids = await seed(5);
    const first = await list('/v1/nodes?detail=True&limit=2', 87);
    expect(first).toBe(await expected(87, 'h', { limit: 2, next: `http://h/v1/nodes?detail=True&limit=2&marker=${uuids[1]}` }));
    const second = await list(`/v1/nodes/detail?limit=2&marker=${uuids[1]}`, 87);
    expect(second).toBe(await expected(87, 'h', { limit: 2, marker: uuids[1], next: `http://h/v1/nodes/detail?limit=2&marker=${uuids[3]}` }));
    expect(await list(`/v1/nodes/detail?limit=2&marker=${uuids[1]}`, 87)).toBe(second);
    expect(await list(`/v1/nodes/detail?limit=2&marker=${uuids[3]}`, 87)).toBe(await expected(87, 'h', { limit: 2, marker: uuids[3] }));
    const desc = await list('/v1/nodes?detail=True&sort_key=name&sort_dir=desc', 87);
    expect(JSON.parse(desc).nodes.map((n: { name: string }) => n.name)).toEqual(['rc4', 'rc3', 'rc2', 'rc1', 'rc0']);
    expect(await list('/v1/nodes?detail=True&sort_key=name&sort_dir=desc', 87, 'h', plain)).toBe(desc);
    // Filters apply as before, including the conductor filter (by the hash ring).
    expect(JSON.parse(await list('/v1/nodes?detail=True&conductor=test-conductor', 87)).nodes).toHaveLength(5);
    expect(await list('/v1/nodes?detail=True&conductor=other', 87)).toBe('{"nodes":[]}');
    expect(await list('/v1/nodes?detail=True&provision_state=available', 87)).toBe(
      await list('/v1/nodes?detail=True&provision_state=available', 87, 'h', plain),
    );
  });

  it('shows the new values of a node changed through the store in the next list, reading only that node', async () => {
    const uuids = await seed(4);
    await list('/v1/nodes/detail', 87);
    await list('/v1/nodes/detail', 87);
    const getMany = vi.spyOn(t.store.nodes, 'getMany');
    const node1 = await t.store.nodes.get(uuids[1]!);
    const changes: [string, () => Promise<unknown>, (n: Record<string, unknown>) => void][] = [
      ['update', () => t.store.nodes.update(uuids[1]!, { description: 'changed' }), (n) => expect(n.description).toBe('changed')],
      ['reserve', () => t.store.nodes.reserve(uuids[1]!, 'holder'), (n) => expect(n.reservation).toBe('holder')],
      ['release', () => t.store.nodes.release(uuids[1]!, 'holder'), (n) => expect(n.reservation).toBeNull()],
      ['setTraits', () => t.store.nodes.setTraits(node1.id, ['CUSTOM_NEW']), (n) => expect(n.traits).toEqual(['CUSTOM_NEW'])],
      ['releaseAll', async () => {
        await t.store.nodes.reserve(uuids[1]!, 'dead');
        await list('/v1/nodes/detail', 87);
        return t.store.nodes.releaseAll('dead');
      }, (n) => expect(n.reservation).toBeNull()],
      ['patch', async () => {
        const res = await t.app.inject({
          method: 'PATCH', url: `/v1/nodes/${uuids[1]}`, headers: version('1.87'), payload: [{ op: 'add', path: '/extra/polled', value: 1 }],
        });
        expect(res.statusCode, res.body).toBe(200);
      }, (n) => expect(n.extra).toMatchObject({ polled: 1 })],
    ];
    for (const [what, change, check] of changes) {
      await change();
      getMany.mockClear();
      const body = await list('/v1/nodes/detail', 87);
      expect(body, what).toBe(await expected(87, 'h'));
      check(JSON.parse(body).nodes[1]);
      expect(getMany.mock.calls, what).toEqual([[[node1.id]]]);
    }
    // Unchanged since, the node is kept again after one more list.
    await list('/v1/nodes/detail', 87);
    getMany.mockClear();
    expect(await list('/v1/nodes/detail', 87)).toBe(await expected(87, 'h'));
    expect(getMany).not.toHaveBeenCalled();
  });

  it('renders a node enrolled again under the UUID of a deleted one afresh', async () => {
    const [uuid] = await seed(1);
    await list('/v1/nodes/detail', 87);
    const before = await list('/v1/nodes/detail', 87);
    await t.store.nodes.delete(uuid!);
    await t.store.nodes.create({ driver: 'fake-hardware', uuid, name: 'reborn' });
    const after = await list('/v1/nodes/detail', 87);
    expect(after).not.toBe(before);
    expect(after).toBe(await expected(87, 'h'));
    expect(JSON.parse(after).nodes[0].name).toBe('reborn');
  });

  it('follows the conductor the hash ring names, without any write of the node', async () => {
    await seed(2);
    await list('/v1/nodes/detail', 87);
    await list('/v1/nodes/detail', 87);
    vi.spyOn(t.conductor, 'conductorsFor').mockImplementation(async (nodes) => nodes.map(() => 'moved-conductor'));
    const body = await list('/v1/nodes/detail', 87);
    expect(body).toBe(await expected(87, 'h'));
    expect(JSON.parse(body).nodes.map((n: { conductor: string }) => n.conductor)).toEqual(['moved-conductor', 'moved-conductor']);
  });

  it('places a node moved to another conductor group between its two reads on its new conductor', async () => {
    const [, moved] = await seed(2);
    vi.spyOn(t.conductor, 'conductorsFor').mockImplementation(async (nodes) => nodes.map((n) => (n.conductor_group === 'rack2' ? 'rack2-conductor' : 'test-conductor')));
    const listKeys = t.store.nodes.listKeys.bind(t.store.nodes);
    vi.spyOn(t.store.nodes, 'listKeys').mockImplementationOnce(async (...args) => {
      const keys = await listKeys(...args);
      await t.store.nodes.update(moved!, { conductor_group: 'rack2' });
      return keys;
    });
    const body = await list('/v1/nodes/detail', 87);
    expect(JSON.parse(body).nodes.map((n: { conductor: string }) => n.conductor)).toEqual(['test-conductor', 'rack2-conductor']);
    expect(body).toBe(await expected(87, 'h'));
  });

  it('keeps microversions and base URLs apart', async () => {
    await seed(3);
    const getMany = vi.spyOn(t.store.nodes, 'getMany');
    const cases = [[87, 'a.example'], [87, 'b.example'], [38, 'a.example'], [1, 'a.example'], [82, 'a.example']] as const;
    const seen = new Set<string>();
    for (let round = 0; round < 3; round++) {
      for (const [minor, host] of cases) {
        const body = await list('/v1/nodes/detail', minor, host);
        expect(body, `1.${minor} ${host}`).toBe(await expected(minor, host));
        expect(body).toBe(await list('/v1/nodes/detail', minor, host, plain));
        seen.add(body);
      }
    }
    expect(seen.size).toBe(cases.length);
    // The first two rounds read every node once per case (seen, then kept), the third round none.
    expect(getMany).toHaveBeenCalledTimes(2 * cases.length);
    expect(JSON.parse(await list('/v1/nodes/detail', 38, 'a.example')).nodes[0].provision_state).toBe('inspecting');
  });

  it('still answers correctly when its bound holds fewer nodes than a page', async () => {
    const small = await createTestApi({ node_render_cache_chars: 3000 });
    try {
      for (let i = 0; i < 4; i++) await small.store.nodes.create({ driver: 'fake-hardware', name: `b${i}`, extra: { pad: 'x'.repeat(600) } });
      const getMany = vi.spyOn(small.store.nodes, 'getMany');
      const res = async () => (await small.app.inject({ url: '/v1/nodes/detail', headers: { ...version('1.87'), host: 'h' } })).body;
      const first = await res();
      const nodes = await small.store.nodes.list({}, { limit: 0 });
      const ctx = await nodeContext({ store: small.store, conductor: small.client } as never, 'http://h', 87, nodes);
      const want = [...nodePageJson(nodes, planNode(87, undefined), ctx, undefined)].join('');
      expect(first).toBe(want);
      expect(JSON.parse(first).nodes[0].extra.pad).toHaveLength(600);
      expect(await res()).toBe(want);
      expect(await res()).toBe(want);
      // Each node's text is over 1000 characters: at most two fit, so every list read at least two again.
      expect(getMany).toHaveBeenCalledTimes(3);
      expect(getMany.mock.calls[2]![0].length).toBeGreaterThanOrEqual(2);
    } finally {
      await small.close();
    }
  });

  it('is not used with the cache off, nor for lists of chosen fields', async () => {
    await seed(2);
    const listKeys = vi.spyOn(t.store.nodes, 'listKeys');
    const want = await expected(87, 'h');
    expect(await list('/v1/nodes/detail', 87, 'h', plain)).toBe(want);
    expect(await list('/v1/nodes?detail=True', 87, 'h', plain)).toBe(want);
    expect(listKeys).not.toHaveBeenCalled();
    const fields = await list('/v1/nodes?fields=uuid,name,extra', 87);
    expect(Object.keys(JSON.parse(fields).nodes[0]).sort()).toEqual(['extra', 'links', 'name', 'uuid']);
    await list('/v1/nodes', 87);
    expect(listKeys).not.toHaveBeenCalled();
  });
});
