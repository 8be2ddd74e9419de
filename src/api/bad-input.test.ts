import { describe, expect, it } from 'vitest';
import { useTestApi, LATEST } from './app.test-support.js';

const t = useTestApi({ max_body_bytes: 4096 });

function fault(body: string): { faultcode: string; faultstring: string; debuginfo?: null } {
  return JSON.parse(JSON.parse(body).error_message);
}

async function counts() {
  return { nodes: await t.store.nodes.count({}), ports: (await t.store.ports.list({}, { limit: 0 })).length };
}

describe('bad input gets 400 naming the problem and changes nothing', () => {
  const cases: [string, { url: string; method: 'POST' | 'PUT'; payload: string; headers?: Record<string, string> }, string][] = [
    ['malformed JSON', { url: '/v1/nodes', method: 'POST', payload: '{"driver": "fake-hardware",' }, 'Malformed JSON'],
    ['wrong type', { url: '/v1/nodes', method: 'POST', payload: JSON.stringify({ driver: 42 }) }, 'driver'],
    ['wrong type in a dict field', { url: '/v1/nodes', method: 'POST', payload: JSON.stringify({ driver: 'fake-hardware', extra: [] }) }, 'Expected object or null'],
    ['unknown field', { url: '/v1/nodes', method: 'POST', payload: JSON.stringify({ driver: 'fake-hardware', colour: 'red' }) }, "'colour'"],
    ['missing required field', { url: '/v1/nodes', method: 'POST', payload: JSON.stringify({ name: 'x' }) }, "'driver' is a required property"],
    ['not an object', { url: '/v1/nodes', method: 'POST', payload: '[1,2]' }, 'expected a JSON object'],
    ['bad MAC', { url: '/v1/ports', method: 'POST', payload: JSON.stringify({ address: 'zz:zz', node_uuid: '00000000-0000-0000-0000-000000000000' }) }, 'MAC address'],
    ['bad power target', { url: '/v1/nodes/xyz/states/power', method: 'PUT', payload: JSON.stringify({ target: 'sideways' }) }, 'sideways'],
  ];

  it.each(cases)('%s', async (_name, req, message) => {
    const before = await counts();
    const res = await t.app.inject({ method: req.method, url: req.url, headers: { 'content-type': 'application/json', ...LATEST, ...req.headers }, payload: req.payload });
    expect(res.statusCode, res.body).toBe(400);
    const f = fault(res.body);
    expect(f.faultcode).toBe('Client');
    expect(f.faultstring).toContain(message);
    expect(await counts()).toEqual(before);
  });

  it('answers a body over api.max_body_bytes with 413 BodyTooLarge in the error envelope, as Ironic does, and changes nothing', async () => {
    const before = await counts();
    const payload = JSON.stringify({ driver: 'fake-hardware', extra: { blob: 'x'.repeat(8000) } });
    for (const headers of [{ 'content-type': 'application/json' }, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }]) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/nodes', headers: { ...LATEST, ...headers }, payload });
      expect(res.statusCode, JSON.stringify(headers)).toBe(413);
      expect(res.headers['x-ingot-error-code']).toBe('BodyTooLarge');
      expect(fault(res.body)).toEqual({ faultcode: 'Client', faultstring: 'Request body is too large (limit 4096 bytes).', debuginfo: null });
    }
    // At the limit the body is read as usual.
    const fits = JSON.stringify({ driver: 'fake-hardware', extra: { blob: '' } });
    const padded = fits.replace('"blob":""', `"blob":"${'x'.repeat(4096 - fits.length)}"`);
    expect(Buffer.byteLength(padded)).toBe(4096);
    expect((await t.app.inject({ method: 'POST', url: '/v1/nodes', headers: { ...LATEST, 'content-type': 'application/json' }, payload: padded })).statusCode).toBe(201);
    expect((await counts()).nodes).toBe(before.nodes + 1);
  });

  it('accepts a JSON body without a Content-Type, as Ironic does', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/nodes', headers: LATEST, payload: JSON.stringify({ driver: 'fake-hardware' }) });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('rejects a wrong type with the field name and expected type', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/nodes', headers: LATEST, payload: { driver: 'fake-hardware', name: 5 } });
    expect(fault(res.body).faultstring).toBe('Invalid input for field/attribute name. Value: 5. Expected string or null, got integer.');
  });

  it('reports an unknown driver as a client error', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/nodes', headers: LATEST, payload: { driver: 'no-such-driver' } });
    expect(res.statusCode).toBe(400);
    expect(fault(res.body).faultstring).toContain('no-such-driver');
  });
});

describe('the same mistake reads the same wherever it is made', () => {
  const missing = '11111111-2222-3333-4444-555555555555';

  async function answer(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) {
    const res = await t.app.inject({ method, url, headers: LATEST, ...(payload === undefined ? {} : { payload: payload as object }) });
    return { status: res.statusCode, code: res.headers['x-ingot-error-code'], text: fault(res.body).faultstring };
  }

  it('a UUID that is not one, in a URL, a query or a body, in Ironic’s words (args.uuid)', async () => {
    expect(await answer('GET', '/v1/chassis/not-a-uuid')).toEqual({ status: 400, code: 'InvalidParameterValue', text: 'Expected UUID for chassis_uuid: not-a-uuid' });
    expect(await answer('GET', '/v1/inspection_rules/not-a-uuid')).toEqual({ status: 400, code: 'InvalidParameterValue', text: 'Expected UUID for inspection_rule_uuid: not-a-uuid' });
    expect(await answer('GET', '/v1/nodes?instance_uuid=nope')).toEqual({ status: 400, code: 'InvalidParameterValue', text: 'Expected UUID for instance_uuid: nope' });
    expect(await answer('GET', '/v1/nodes?chassis_uuid=nope')).toEqual({ status: 400, code: 'InvalidParameterValue', text: 'Expected UUID for chassis_uuid: nope' });
    expect(await answer('DELETE', '/v1/ports/nope')).toEqual({ status: 400, code: 'InvalidParameterValue', text: 'Expected UUID for port_uuid: nope' });
    expect(await answer('POST', '/v1/nodes', { driver: 'fake-hardware', chassis_uuid: 'nope' })).toEqual({ status: 400, code: 'InvalidParameterValue', text: 'Expected UUID for chassis_uuid: nope' });
  });

  it('a resource a parameter names that does not exist: its not-found message, answered 400 as Ironic does', async () => {
    const before = await counts();
    expect(await answer('POST', '/v1/nodes', { driver: 'fake-hardware', chassis_uuid: missing })).toEqual({ status: 400, code: 'ChassisNotFound', text: `Chassis ${missing} could not be found.` });
    expect(await answer('POST', '/v1/ports', { address: '52:54:00:00:00:01', node_uuid: missing })).toEqual({ status: 400, code: 'NodeNotFound', text: `Node ${missing} could not be found.` });
    expect(await answer('GET', '/v1/ports?node=no-such-node')).toEqual({ status: 400, code: 'NodeNotFound', text: 'Node no-such-node could not be found.' });
    expect(await counts()).toEqual(before);
  });

  it('a body that is not a JSON object, for every resource', async () => {
    expect((await answer('POST', '/v1/nodes', [1])).text).toBe('Invalid input for node: expected a JSON object, got array.');
    expect((await answer('POST', '/v1/inspection_rules', [1])).text).toBe('Invalid input for inspection rule: expected a JSON object, got array.');
  });

  it('a body that is not JSON is MalformedBody, with its code', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/nodes', headers: { ...LATEST, 'content-type': 'application/json' }, payload: '{"driver":' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['x-ingot-error-code']).toBe('MalformedBody');
    expect(fault(res.body).faultstring).toMatch(/^Malformed JSON body: /);
  });
});
