import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Node } from '../../domain/node.js';
import { nodeContext } from '../resolve.js';
import { NODE_PAGE_PIECE_CHARS, nodeJsonRenderer, nodePageJson, nodeTextPageJson, planNode, serializeNodes } from '../serialize/node.js';
import { useTestApi, LATEST } from '../app.test-support.js';

const t = useTestApi({ max_limit: 50 });
beforeEach(async () => {
  for (const n of await t.store.nodes.list({}, { limit: 0 })) await t.store.nodes.delete(n.uuid);
});
afterEach(() => {
  vi.restoreAllMocks();
});

async function seed(count: number): Promise<string[]> {
  const uuids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await t.app.inject({
      method: 'POST', url: '/v1/nodes', headers: LATEST,
      payload: { driver: 'fake-hardware', name: `s${i}`, driver_info: { ipmi_password: `pw${i}`, ipmi_address: `10.0.0.${i}` }, extra: { i } },
    });
    expect(res.statusCode, res.body).toBe(201);
    uuids.push(res.json().uuid);
  }
  return uuids;
}

describe('nodePageJson', () => {
  it('renders the same text as stringifying the whole page, for any piece size', async () => {
    await seed(5);
    const all = await t.store.nodes.list({}, { limit: 0 });
    for (const minor of [1, 42, 87]) {
      const ctx = await nodeContext({ store: t.store, conductor: t.client } as never, 'http://h', minor, all);
      for (const plan of [planNode(minor, undefined), planNode(minor, ['uuid', 'provision_state'])]) {
        for (const count of [0, 1, 5]) {
          for (const next of [undefined, 'http://h/v1/nodes?limit=2&marker=x"y']) {
            const whole = JSON.stringify({ nodes: serializeNodes(all.slice(0, count), plan, ctx), next });
            for (const chunk of [1, 2, 3, 100]) {
              const pieces = [...nodePageJson(all.slice(0, count), plan, ctx, next, chunk)];
              expect(pieces.join('')).toBe(whole);
              expect(pieces.length).toBe(Math.max(1, Math.ceil(count / chunk)));
            }
          }
        }
      }
    }
  });

  async function collect(pieces: AsyncIterable<string>): Promise<string[]> {
    const out: string[] = [];
    for await (const p of pieces) out.push(p);
    return out;
  }

  it('renders the same page from node texts, single or joined, for any piece size', async () => {
    await seed(5);
    const all = await t.store.nodes.list({}, { limit: 0 });
    const minor = 87;
    const ctx = await nodeContext({ store: t.store, conductor: t.client } as never, 'http://h', minor, all);
    const plan = planNode(minor, undefined);
    const render = nodeJsonRenderer(plan, minor);
    for (const count of [0, 1, 5]) {
      for (const next of [undefined, 'http://h/v1/nodes?limit=2&marker=x"y']) {
        const whole = JSON.stringify({ nodes: serializeNodes(all.slice(0, count), plan, ctx), next });
        const one = all.slice(0, count).map((n) => render.one(n, ctx));
        const mixed = count < 2 ? one : [render.many(all.slice(0, 2), ctx), ...all.slice(2, count).map((n) => render.one(n, ctx))];
        for (const pieceChars of [1, 3000, 10_000, NODE_PAGE_PIECE_CHARS]) {
          expect((await collect(nodeTextPageJson(one, next, pieceChars))).join('')).toBe(whole);
          expect((await collect(nodeTextPageJson(mixed, next, pieceChars))).join('')).toBe(whole);
        }
        expect(await collect(nodeTextPageJson(one, next, 1))).toHaveLength(count + 1);
      }
    }
  });

  it('empties the page it is given as it renders', async () => {
    await seed(3);
    const nodes: Node[] = await t.store.nodes.list({}, { limit: 0 });
    const ctx = await nodeContext({ store: t.store, conductor: t.client } as never, 'http://h', 87, nodes);
    const gen = nodePageJson(nodes, planNode(87, undefined), ctx, undefined, 2);
    gen.next();
    expect(nodes).toHaveLength(1);
    gen.next();
    expect(nodes).toHaveLength(0);
  });
});

describe('streamed node lists', () => {
  it('answers the same document as the nodes shown one by one, with the JSON type and version headers', async () => {
    const uuids = await seed(5);
    const shown = [];
    for (const u of uuids) shown.push((await t.app.inject({ url: `/v1/nodes/${u}`, headers: { ...LATEST, host: 'h' } })).json());
    const res = await t.app.inject({ url: '/v1/nodes?detail=True&limit=3', headers: { ...LATEST, host: 'h' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['x-openstack-ironic-api-version']).toMatch(/^1\.\d+$/);
    expect(res.headers['openstack-request-id']).toMatch(/^req-/);
    expect(res.json()).toEqual({ nodes: shown.slice(0, 3), next: `http://h/v1/nodes?detail=True&limit=3&marker=${uuids[2]}` });
    expect(res.json().nodes[0].driver_info.ipmi_password).toBe('******');
    const rest = await t.app.inject({ url: `/v1/nodes/detail?marker=${uuids[2]}`, headers: { ...LATEST, host: 'h' } });
    expect(rest.json()).toEqual({ nodes: shown.slice(3) });
  });

  it('answers an empty list as {"nodes":[]}', async () => {
    const res = await t.app.inject({ url: '/v1/nodes?detail=True', headers: LATEST });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toBe('{"nodes":[]}');
  });

  it('answers errors raised before the first byte with the error envelope', async () => {
    await seed(2);
    const envelope = (body: string) => JSON.parse(JSON.parse(body).error_message) as { faultstring: string };
    const bad = await t.app.inject({ url: '/v1/nodes?detail=True&limit=x', headers: LATEST });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toMatch(/^application\/json/);
    expect(envelope(bad.body).faultstring).toContain('limit');

    // Detailed lists read keys, then the nodes not cached; other lists read the nodes whole.
    const reads = [
      ['listKeys', '/v1/nodes?detail=True'],
      ['getMany', '/v1/nodes/detail'],
      ['list', '/v1/nodes?fields=uuid,name'],
    ] as const;
    for (const [method, url] of reads) {
      vi.spyOn(t.store.nodes, method).mockRejectedValueOnce(new Error('database gone'));
      const storeFails = await t.app.inject({ url, headers: LATEST });
      expect(storeFails.statusCode, method).toBe(500);
      expect(storeFails.headers['x-openstack-ironic-api-version']).toMatch(/^1\.\d+$/);
      expect(typeof envelope(storeFails.body).faultstring).toBe('string');
    }

    vi.spyOn(t.conductor, 'conductorsFor').mockRejectedValueOnce(new Error('conductor gone'));
    const conductorFails = await t.app.inject({ url: '/v1/nodes?detail=True', headers: LATEST });
    expect(conductorFails.statusCode).toBe(500);
    expect(conductorFails.headers['content-type']).toMatch(/^application\/json/);
    expect(envelope(conductorFails.body).faultstring).toBe('Internal server error; see the server log.');
  });
});
