import { describe, expect, it } from 'vitest';
import { useTestApi, createTestApi } from './app.test-support.js';

const t = useTestApi();

/** Decodes Ironic's error envelope. */
function fault(body: string): { faultcode: string; faultstring: string; debuginfo: null } {
  const outer = JSON.parse(body) as { error_message: string };
  expect(Object.keys(outer)).toEqual(['error_message']);
  return JSON.parse(outer.error_message);
}

describe('discovery', () => {
  it('GET / lists v1 with min and max versions and links to the request host', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/', headers: { host: 'example.test:6385' } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.name).toBe('OpenStack Ironic API');
    expect(body.default_version).toEqual({
      id: 'v1',
      links: [{ href: 'http://example.test:6385/v1/', rel: 'self' }],
      status: 'CURRENT',
      min_version: '1.1',
      version: '1.96',
    });
    expect(body.versions).toEqual([body.default_version]);
  });

  it('GET /v1 links resources gated by version', async () => {
    const old = (await t.app.inject({ method: 'GET', url: '/v1', headers: { host: 'h' } })).json();
    expect(old.id).toBe('v1');
    expect(old.media_types).toEqual([{ base: 'application/json', type: 'application/vnd.openstack.ironic.v1+json' }]);
    expect(old.nodes).toEqual([
      { href: 'http://h/v1/nodes/', rel: 'self' },
      { href: 'http://h/nodes/', rel: 'bookmark' },
    ]);
    expect(old.conductors).toBeUndefined();
    expect(old.portgroups).toBeUndefined();
    const latest = (await t.app.inject({ method: 'GET', url: '/v1/', headers: { 'x-openstack-ironic-api-version': 'latest' } })).json();
    expect(latest.conductors).toHaveLength(2);
    expect(latest.portgroups).toHaveLength(2);
  });

  it('uses api.public_url for links when set', async () => {
    const other = await createTestApi({ public_url: 'https://ironic.example/' });
    try {
      const body = (await other.app.inject({ method: 'GET', url: '/' })).json();
      expect(body.default_version.links[0].href).toBe('https://ironic.example/v1/');
    } finally {
      await other.close();
    }
  });
});

describe('microversions', () => {
  it('defaults to 1.1 and echoes the version headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/nodes' });
    expect(res.headers['x-openstack-ironic-api-minimum-version']).toBe('1.1');
    expect(res.headers['x-openstack-ironic-api-maximum-version']).toBe('1.96');
    expect(res.headers['x-openstack-ironic-api-version']).toBe('1.1');
    expect(res.headers['openstack-api-version']).toBe('baremetal 1.1');
  });

  it('accepts the standard header and latest', async () => {
    const std = await t.app.inject({ method: 'GET', url: '/v1/nodes', headers: { 'openstack-api-version': 'baremetal 1.50' } });
    expect(std.headers['x-openstack-ironic-api-version']).toBe('1.50');
    const latest = await t.app.inject({ method: 'GET', url: '/v1/nodes', headers: { 'x-openstack-ironic-api-version': 'latest' } });
    expect(latest.headers['x-openstack-ironic-api-version']).toBe('1.96');
  });

  it.each(['1.97', '1.0', '2.1', 'abc', '1.x'])('answers 406 with the supported range for %s', async (v) => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/nodes', headers: { 'x-openstack-ironic-api-version': v } });
    expect(res.statusCode).toBe(406);
    expect(res.headers['x-openstack-ironic-api-maximum-version']).toBe('1.96');
    // Ironic's version refusal is a webob error: {code, title, description} inside error_message.
    const f = JSON.parse((JSON.parse(res.body) as { error_message: string }).error_message) as { code: number; title: string; description: string };
    expect(f.code).toBe(406);
    expect(f.title).toBe('Not Acceptable');
    if (/^\d+\.\d+$/.test(v)) expect(f.description).toContain('The supported version range is: [1.1, 1.96].');
    else expect(f.description).toContain('Invalid value');
  });

  it('says so for an out-of-range minor version in Ironic’s words', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1', headers: { 'x-openstack-ironic-api-version': '1.99' } });
    expect((JSON.parse((JSON.parse(res.body) as { error_message: string }).error_message) as { description: string }).description).toBe(
      'Version 1.99 was requested but the minor version is not supported by this service. The supported version range is: [1.1, 1.96].',
    );
  });

  it('returns 404 for URLs newer than the requested version', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/conductors', headers: { 'x-openstack-ironic-api-version': '1.48' } });
    expect(res.statusCode).toBe(404);
    const ok = await t.app.inject({ method: 'GET', url: '/v1/conductors', headers: { 'x-openstack-ironic-api-version': '1.49' } });
    expect(ok.statusCode).toBe(200);
  });
});

describe('errors', () => {
  it('wraps unknown routes in the envelope with 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(fault(res.body)).toEqual({ faultcode: 'Client', faultstring: 'The resource could not be found.', debuginfo: null });
    expect(res.headers['x-openstack-ironic-api-version']).toBe('1.1');
  });

  it('answers 405 for a wrong method on a known resource', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/v1/nodes' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, POST');
    expect(fault(res.body).faultstring).toContain('PUT');
  });
});

describe('over a real socket', () => {
  it('serves a node list with the version headers on 127.0.0.1', async () => {
    const api = await createTestApi();
    try {
      await api.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = api.app.server.address() as { port: number };
      const res = await fetch(`http://127.0.0.1:${port}/v1/nodes`, { headers: { 'X-OpenStack-Ironic-API-Version': '1.82' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-openstack-ironic-api-version')).toBe('1.82');
      expect(res.headers.get('openstack-request-id')).toMatch(/^req-[0-9a-f-]{36}$/);
      expect(await res.json()).toEqual({ nodes: [] });
    } finally {
      await api.close();
    }
  });
});
