/**
 * Hostile input over real sockets: a real `ingot serve` with the ironic-inspector listener, and requests
 * built byte for byte (`node:http`, so malformed percent escapes, long paths and invalid UTF-8 reach the
 * server as sent). Every case gets a clear 4xx in the envelope of the API it hits (Ironic's
 * `error_message` with a faultstring, or ironic-inspector's `error.message`), the server answers
 * afterwards, and the nodes, ports and rules it holds are exactly what they were before.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server.js';

const MAX_BODY = 65_536;
const MAX_INSPECTION_BODY = 131_072;
const API = { 'x-openstack-ironic-api-version': 'latest', 'content-type': 'application/json' };
const INSPECTOR = { 'x-openstack-ironic-inspector-api-version': '1.18', 'content-type': 'application/json' };

interface Answer {
  status: number;
  body: string;
}

let server: RunningServer;
let nodeUuid: string;
let portUuid: string;

/** Sends exactly `path` and `body` (no URL normalisation, no re-encoding). */
function send(base: string, method: string, path: string, headers: Record<string, string>, body?: string | Buffer): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function json(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await send(server.url, method, path, API, body === undefined ? undefined : JSON.stringify(body));
  expect(res.status, res.body).toBeLessThan(300);
  return res.body === '' ? {} : (JSON.parse(res.body) as Record<string, unknown>);
}

/** What the server holds: every listing in full. */
async function snapshot(): Promise<string> {
  const lists = await Promise.all([
    json('GET', '/v1/nodes?detail=True'),
    json('GET', '/v1/ports?detail=True'),
    json('GET', '/v1/inspection_rules?detail=True'),
    send(server.inspectorUrl!, 'GET', '/v1/rules', INSPECTOR).then((r) => r.body),
  ]);
  return JSON.stringify(lists);
}

/** The faultstring of Ironic's envelope, or the message of ironic-inspector's. */
function faultOf(api: 'ironic' | 'inspector', body: string): string {
  const doc = JSON.parse(body) as { error_message?: string; error?: { message?: string } };
  if (api === 'inspector') {
    expect(typeof doc.error?.message, body).toBe('string');
    return doc.error!.message!;
  }
  expect(typeof doc.error_message, body).toBe('string');
  const inner = JSON.parse(doc.error_message!) as { faultcode: string; faultstring: string };
  expect(inner.faultcode).toBe('Client');
  return inner.faultstring;
}

const nest = (depth: number, leaf = '1'): string => `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`;
const nestedObject = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const badUtf8 = (prefix: string): Buffer => Buffer.concat([Buffer.from(`${prefix}"`), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')]);
const patch = (...ops: unknown[]): string => JSON.stringify(ops);

interface Case {
  name: string;
  api?: 'ironic' | 'inspector';
  method: string;
  path: string | (() => string);
  body?: string | Buffer | (() => string);
  status: number;
  fault: RegExp;
}

const node = (): string => `/v1/nodes/${nodeUuid}`;
const port = (): string => `/v1/ports/${portUuid}`;
const heartbeat = (): string => `/v1/heartbeat/${nodeUuid}`;
const PROTO = /cannot be used as a key/;
const DEEP = /nest deeper than 100 levels/;
const UTF8 = /not valid UTF-8/;
const PROTO_BODY = /the key "__proto__" is not allowed/;
const NUL = /NUL characters/;
const rule = (over: Record<string, unknown>): string => JSON.stringify({ description: 'hostile', actions: [{ op: 'add-trait', args: { name: 'CUSTOM_X' } }], ...over });
const legacyRule = (over: Record<string, unknown>): string => JSON.stringify({ description: 'hostile', conditions: [], actions: [{ action: 'fail', message: 'm' }], ...over });

const CASES: Case[] = [
  // JSON Patch on prototype paths
  { name: 'patch add /extra/__proto__/x', method: 'PATCH', path: node, body: patch({ op: 'add', path: '/extra/__proto__/agent_secret_token', value: 'x' }), status: 400, fault: PROTO },
  { name: 'patch replace /extra/__proto__', method: 'PATCH', path: node, body: patch({ op: 'replace', path: '/extra/__proto__', value: { polluted: true } }), status: 400, fault: PROTO },
  { name: 'patch add /extra/constructor/prototype/x', method: 'PATCH', path: node, body: patch({ op: 'add', path: '/extra/constructor/prototype/x', value: 1 }), status: 400, fault: PROTO },
  { name: 'patch add /driver_info/constructor/x', method: 'PATCH', path: node, body: patch({ op: 'add', path: '/driver_info/constructor/x', value: 1 }), status: 400, fault: PROTO },
  { name: 'patch add /properties/prototype', method: 'PATCH', path: node, body: patch({ op: 'add', path: '/properties/prototype', value: 1 }), status: 400, fault: PROTO },
  { name: 'patch add /__proto__', method: 'PATCH', path: node, body: patch({ op: 'add', path: '/__proto__', value: 1 }), status: 400, fault: PROTO },
  { name: 'patch remove /instance_info/__proto__', method: 'PATCH', path: node, body: patch({ op: 'remove', path: '/instance_info/__proto__' }), status: 400, fault: PROTO },
  { name: 'patch replace an inherited name', method: 'PATCH', path: node, body: patch({ op: 'replace', path: '/extra/hasOwnProperty', value: 1 }), status: 400, fault: /non-existent object 'hasOwnProperty'/ },
  { name: 'patch remove an inherited name', method: 'PATCH', path: node, body: patch({ op: 'remove', path: '/extra/toString' }), status: 400, fault: /non-existent object 'toString'/ },
  { name: 'port patch add /extra/__proto__/x', method: 'PATCH', path: port, body: patch({ op: 'add', path: '/extra/__proto__/x', value: 1 }), status: 400, fault: PROTO },
  { name: 'port patch /local_link_connection/constructor/prototype', method: 'PATCH', path: port, body: patch({ op: 'add', path: '/local_link_connection/constructor/prototype/x', value: 1 }), status: 400, fault: PROTO },
  { name: 'patch that is an object', method: 'PATCH', path: node, body: '{"op": "add"}', status: 400, fault: /JSON array/ },

  // __proto__ keys and NULs in bodies
  { name: 'node with a __proto__ key in extra', method: 'POST', path: '/v1/nodes', body: '{"driver": "fake-hardware", "extra": {"__proto__": {"x": 1}}}', status: 400, fault: PROTO_BODY },
  { name: 'node with an escaped __proto__ key', method: 'POST', path: '/v1/nodes', body: '{"driver": "fake-hardware", "extra": {"\\u005f_proto__": {"x": 1}}}', status: 400, fault: PROTO_BODY },
  { name: 'port with a __proto__ key', method: 'POST', path: '/v1/ports', body: () => JSON.stringify({ address: '52:54:00:00:00:99', node_uuid: nodeUuid }).replace('{', '{"__proto__": {},'), status: 400, fault: PROTO_BODY },
  { name: 'patch value with a __proto__ key', method: 'PATCH', path: node, body: '[{"op": "add", "path": "/extra/k", "value": {"__proto__": {"x": 1}}}]', status: 400, fault: PROTO_BODY },
  { name: 'node name with a NUL', method: 'POST', path: '/v1/nodes', body: '{"driver": "fake-hardware", "name": "a\\u0000b"}', status: 400, fault: NUL },
  { name: 'node extra value with a NUL', method: 'POST', path: '/v1/nodes', body: '{"driver": "fake-hardware", "extra": {"k": "v\\u0000"}}', status: 400, fault: NUL },
  { name: 'node extra key with a NUL', method: 'POST', path: '/v1/nodes', body: '{"driver": "fake-hardware", "extra": {"\\u0000": 1}}', status: 400, fault: NUL },
  { name: 'node name with a newline', method: 'POST', path: '/v1/nodes', body: JSON.stringify({ driver: 'fake-hardware', name: 'a\nb' }), status: 400, fault: /invalid name|Cannot use|name/i },
  { name: 'node name with a bell', method: 'POST', path: '/v1/nodes', body: JSON.stringify({ driver: 'fake-hardware', name: 'bell\u0007' }), status: 400, fault: /name/i },
  { name: 'rename a node to a name with an escape', method: 'PATCH', path: node, body: patch({ op: 'replace', path: '/name', value: 'x\u001b[31m' }), status: 400, fault: /invalid name/ },
  { name: 'port name with a space', method: 'POST', path: '/v1/ports', body: () => JSON.stringify({ address: '52:54:00:00:00:98', node_uuid: nodeUuid, name: 'a b' }), status: 400, fault: /invalid name 'a b' for a port/ },
  { name: 'port name with a tab', method: 'POST', path: '/v1/ports', body: () => JSON.stringify({ address: '52:54:00:00:00:98', node_uuid: nodeUuid, name: 'a\tb' }), status: 400, fault: /for a port/ },
  { name: 'port renamed with a slash', method: 'PATCH', path: port, body: patch({ op: 'replace', path: '/name', value: 'a/b' }), status: 400, fault: /invalid name 'a\/b' for a port/ },
  { name: 'port name of 256 characters', method: 'POST', path: '/v1/ports', body: () => JSON.stringify({ address: '52:54:00:00:00:97', node_uuid: nodeUuid, name: 'p'.repeat(256) }), status: 400, fault: /for a port/ },

  // Deeply nested bodies
  { name: 'node extra nested 3,000 deep', method: 'POST', path: '/v1/nodes', body: `{"driver": "fake-hardware", "extra": {"k": ${nest(3000)}}}`, status: 400, fault: DEEP },
  { name: 'node body nested 30,000 deep', method: 'POST', path: '/v1/nodes', body: nest(30_000), status: 400, fault: DEEP },
  { name: 'objects nested 101 deep', method: 'POST', path: '/v1/nodes', body: `{"driver": "fake-hardware", "extra": ${nestedObject(100)}}`, status: 400, fault: DEEP },
  { name: 'patch value nested 5,000 deep', method: 'PATCH', path: node, body: `[{"op": "add", "path": "/extra/deep", "value": ${nest(5000)}}]`, status: 400, fault: DEEP },
  { name: 'port extra nested 5,000 deep', method: 'POST', path: '/v1/ports', body: () => `{"address": "52:54:00:00:00:96", "node_uuid": "${nodeUuid}", "extra": ${nest(5000)}}`, status: 400, fault: DEEP },
  { name: 'heartbeat nested 5,000 deep', method: 'POST', path: heartbeat, body: `{"callback_url": "http://127.0.0.1:9999", "agent_version": ${nest(5000)}}`, status: 400, fault: DEEP },
  { name: 'inspection data nested 50,000 deep', method: 'POST', path: '/v1/continue_inspection', body: `{"inventory": ${nest(50_000)}}`, status: 400, fault: DEEP },
  { name: 'inspection rule nested 5,000 deep', method: 'POST', path: '/v1/inspection_rules', body: `{"actions": ${nest(5000)}}`, status: 400, fault: DEEP },
  { name: 'inspector continue nested 50,000 deep', api: 'inspector', method: 'POST', path: '/v1/continue', body: `{"inventory": ${nest(50_000)}}`, status: 400, fault: DEEP },
  { name: 'inspector rule nested 5,000 deep', api: 'inspector', method: 'POST', path: '/v1/rules', body: `{"actions": ${nest(5000)}}`, status: 400, fault: DEEP },

  // Invalid UTF-8 and malformed bodies
  { name: 'node with invalid UTF-8', method: 'POST', path: '/v1/nodes', body: badUtf8('{"driver": "fake-hardware", "name": '), status: 400, fault: UTF8 },
  { name: 'heartbeat with invalid UTF-8', method: 'POST', path: heartbeat, body: badUtf8('{"callback_url": '), status: 400, fault: UTF8 },
  { name: 'inspection data with invalid UTF-8', method: 'POST', path: '/v1/continue_inspection', body: badUtf8('{"inventory": '), status: 400, fault: UTF8 },
  { name: 'inspector continue with invalid UTF-8', api: 'inspector', method: 'POST', path: '/v1/continue', body: badUtf8('{"inventory": '), status: 400, fault: UTF8 },
  { name: 'heartbeat truncated', method: 'POST', path: heartbeat, body: '{"callback_url":', status: 400, fault: /Malformed JSON/ },
  { name: 'inspection data truncated', method: 'POST', path: '/v1/continue_inspection', body: '[1, 2', status: 400, fault: /Malformed JSON/ },
  { name: 'inspector continue truncated', api: 'inspector', method: 'POST', path: '/v1/continue', body: '{"inventory": {', status: 400, fault: /Malformed JSON/ },

  // Oversized bodies
  { name: 'node body over the limit', method: 'POST', path: '/v1/nodes', body: JSON.stringify({ driver: 'fake-hardware', extra: { blob: 'x'.repeat(MAX_BODY) } }), status: 413, fault: /too large/ },
  { name: 'heartbeat over the limit', method: 'POST', path: heartbeat, body: JSON.stringify({ callback_url: 'http://127.0.0.1:9999', agent_version: 'x'.repeat(MAX_BODY) }), status: 413, fault: /too large/ },
  { name: 'inspection data over its limit', method: 'POST', path: '/v1/continue_inspection', body: JSON.stringify({ inventory: { blob: 'x'.repeat(MAX_INSPECTION_BODY) } }), status: 413, fault: /too large/ },
  { name: 'inspection rule over the limit', method: 'POST', path: '/v1/inspection_rules', body: rule({ description: 'x'.repeat(MAX_BODY) }), status: 413, fault: /too large/ },
  { name: 'inspector rule over the limit', api: 'inspector', method: 'POST', path: '/v1/rules', body: legacyRule({ description: 'x'.repeat(MAX_BODY) }), status: 413, fault: /too large/ },

  // URLs: percent escapes, long and odd path parameters
  { name: 'malformed percent escape in a node ident', method: 'GET', path: '/v1/nodes/%zz', status: 400, fault: /percent escape/ },
  { name: 'truncated percent escape', method: 'GET', path: '/v1/nodes/abc%E0%A4%A', status: 400, fault: /percent escape/ },
  { name: 'lone percent in a port ident', method: 'GET', path: '/v1/ports/%', status: 400, fault: /percent escape/ },
  { name: 'malformed escape in a heartbeat', method: 'POST', path: '/v1/heartbeat/%G0', body: '{}', status: 400, fault: /percent escape/ },
  { name: 'inspector ident with a malformed escape', api: 'inspector', method: 'GET', path: '/v1/introspection/%zz', status: 400, fault: /percent escape/ },
  { name: 'node ident of 300 characters', method: 'GET', path: `/v1/nodes/${'n'.repeat(300)}`, status: 400, fault: /Expected a logical name or UUID/ },
  { name: 'node ident of 2,000 characters', method: 'GET', path: `/v1/nodes/${'n'.repeat(2000)}`, status: 414, fault: /longer than 1024 characters/ },
  { name: 'heartbeat for an ident of 2,000 characters', method: 'POST', path: `/v1/heartbeat/${'n'.repeat(2000)}`, body: '{}', status: 414, fault: /longer than 1024/ },
  { name: 'inspector ident of 2,000 characters', api: 'inspector', method: 'GET', path: `/v1/introspection/${'n'.repeat(2000)}`, status: 414, fault: /longer than 1024/ },
  { name: 'node ident with an encoded NUL', method: 'GET', path: '/v1/nodes/a%00b', status: 400, fault: /Expected a logical name or UUID/ },
  { name: 'node ident with an encoded newline', method: 'GET', path: '/v1/nodes/a%0Ab', status: 400, fault: /Expected a logical name or UUID/ },
  { name: 'node ident __proto__ patched', method: 'PATCH', path: '/v1/nodes/__proto__', body: patch({ op: 'add', path: '/extra/x', value: 1 }), status: 404, fault: /could not be found/ },

  // Query parameters
  { name: 'negative limit', method: 'GET', path: '/v1/nodes?limit=-1', status: 400, fault: /Limit must be positive/ },
  { name: 'limit that is not a number', method: 'GET', path: '/v1/nodes?limit=many', status: 400, fault: /Invalid limit/ },
  { name: 'limit in exponent form', method: 'GET', path: '/v1/ports?limit=1e9', status: 400, fault: /Invalid limit/ },
  { name: 'marker that names no node', method: 'GET', path: '/v1/nodes?marker=6b2a7a1e-1c55-4a3c-9d8b-3f0b8c2d9e01', status: 404, fault: /could not be found/ },
  { name: 'marker that is no UUID', method: 'GET', path: '/v1/ports?marker=%3Cscript%3E', status: 404, fault: /could not be found/ },
  { name: 'sort_key __proto__', method: 'GET', path: '/v1/nodes?sort_key=__proto__', status: 400, fault: /invalid field for sorting/ },
  { name: 'sort_key constructor', method: 'GET', path: '/v1/nodes?sort_key=constructor', status: 400, fault: /invalid field for sorting/ },
  { name: 'sort_key on a JSON field', method: 'GET', path: '/v1/nodes?sort_key=driver_info', status: 400, fault: /invalid field for sorting/ },
  { name: 'sort_key with SQL', method: 'GET', path: '/v1/ports?sort_key=id%3B%20drop%20table%20ports', status: 400, fault: /invalid field for sorting/ },
  { name: 'port sort_key toString', method: 'GET', path: '/v1/ports?sort_key=toString', status: 400, fault: /invalid field for sorting/ },
  { name: 'sort_dir sideways', method: 'GET', path: '/v1/nodes?sort_dir=sideways', status: 400, fault: /sideways/ },
  { name: 'fields=__proto__', method: 'GET', path: '/v1/nodes?fields=__proto__', status: 400, fault: /are not valid/ },
  { name: 'fields=constructor,uuid', method: 'GET', path: '/v1/nodes?fields=constructor,uuid', status: 400, fault: /are not valid/ },
  { name: 'port fields=toString', method: 'GET', path: '/v1/ports?fields=toString', status: 400, fault: /are not valid/ },

  // Inspection rules: regexes a backtracking engine could not bound, prototype paths
  { name: 'rule with a backreference', method: 'POST', path: '/v1/inspection_rules', body: rule({ conditions: [{ op: 'matches', args: { value: 'x', regex: '(a+)\\1' } }] }), status: 400, fault: /\\1.*linear-time/ },
  { name: 'rule with a lookahead', method: 'POST', path: '/v1/inspection_rules', body: rule({ conditions: [{ op: 'contains', args: { value: 'x', regex: '(?=a)a' } }] }), status: 400, fault: /\(\?=.*linear-time/ },
  { name: 'rule with a lookbehind', method: 'POST', path: '/v1/inspection_rules', body: rule({ conditions: [{ op: 'contains', args: { value: 'x', regex: '(?<!a)b' } }] }), status: 400, fault: /linear-time/ },
  { name: 'rule setting /extra/__proto__/x', method: 'POST', path: '/v1/inspection_rules', body: rule({ actions: [{ op: 'set-attribute', args: { path: '/extra/__proto__/agent_secret_token', value: 'x' } }] }), status: 400, fault: PROTO },
  { name: 'rule setting plugin data constructor.prototype', method: 'POST', path: '/v1/inspection_rules', body: rule({ actions: [{ op: 'set-plugin-data', args: { path: 'constructor.prototype.x', value: 1 } }] }), status: 400, fault: PROTO },
  { name: 'rule on a port path through __proto__', method: 'POST', path: '/v1/inspection_rules', body: rule({ actions: [{ op: 'set-port-attribute', args: { port_id: 'x', path: '/extra/__proto__/x', value: 1 } }] }), status: 400, fault: PROTO },
  { name: 'inspector rule setting extra/__proto__/x', api: 'inspector', method: 'POST', path: '/v1/rules', body: legacyRule({ actions: [{ action: 'set-attribute', path: 'extra/__proto__/agent_secret_token', value: 'x' }] }), status: 400, fault: PROTO },
  { name: 'inspector rule with a backreference', api: 'inspector', method: 'POST', path: '/v1/rules', body: legacyRule({ conditions: [{ op: 'matches', field: 'inventory.bmc_address', value: '(.)\\1' }] }), status: 400, fault: /linear-time/ },
];

beforeAll(async () => {
  server = await startServer({
    inspector: true,
    env: { INGOT_API_MAX_BODY_BYTES: String(MAX_BODY), INGOT_API_MAX_INSPECTION_BODY_BYTES: String(MAX_INSPECTION_BODY) },
  });
  nodeUuid = (await json('POST', '/v1/nodes', { driver: 'fake-hardware', name: 'victim', extra: { keep: 1 } })).uuid as string;
  portUuid = (await json('POST', '/v1/ports', { address: '52:54:00:00:00:01', node_uuid: nodeUuid, name: 'victim-port' })).uuid as string;
  await json('POST', '/v1/inspection_rules', { description: 'kept', actions: [{ op: 'add-trait', args: { name: 'CUSTOM_KEPT' } }] });
}, 60_000);
afterAll(async () => {
  await server?.dispose();
});

describe('hostile input gets a clear 4xx and changes nothing', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const before = await snapshot();
    const api = c.api ?? 'ironic';
    const base = api === 'inspector' ? server.inspectorUrl! : server.url;
    const path = typeof c.path === 'function' ? c.path() : c.path;
    const body = typeof c.body === 'function' ? c.body() : c.body;
    const res = await send(base, c.method, path, api === 'inspector' ? INSPECTOR : API, body);
    expect(res.status, res.body).toBe(c.status);
    expect(faultOf(api, res.body)).toMatch(c.fault);
    expect((await send(server.url, 'GET', '/v1', API)).status).toBe(200);
    expect((await send(server.inspectorUrl!, 'GET', '/v1', INSPECTOR)).status).toBe(200);
    expect(await snapshot()).toEqual(before);
  });

  it('a valid name of 150 characters is found by its name', async () => {
    const name = `n${'a'.repeat(149)}`;
    const created = await json('POST', '/v1/nodes', { driver: 'fake-hardware', name });
    try {
      expect((await json('GET', `/v1/nodes/${name}`)).uuid).toBe(created.uuid);
    } finally {
      await json('DELETE', `/v1/nodes/${created.uuid as string}`);
    }
  });

  it('a huge limit is Ironic\'s: clamped to the largest page, not an error', async () => {
    const res = await send(server.url, 'GET', '/v1/nodes?limit=99999999999999999999999', API);
    expect(res.status).toBe(200);
    expect((JSON.parse(res.body) as { nodes: unknown[] }).nodes.length).toBeGreaterThan(0);
  });
});
