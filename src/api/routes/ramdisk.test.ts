import { describe, expect, it } from 'vitest';
import { faultString, useTestApi } from '../app.test-support.js';

const t = useTestApi({ max_body_bytes: 1024, max_inspection_body_bytes: 4096 });

describe('POST /v1/continue_inspection', () => {
  it('takes inspection data larger than an ordinary request, without a version header, and answers 202 with the node', async () => {
    const body = JSON.stringify({ inventory: { padding: 'x'.repeat(2000) } });
    const res = await t.app.inject({ method: 'POST', url: '/v1/continue_inspection?node_uuid=abc', payload: body, headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ uuid: 'abc' });
    expect(t.conductor.calls).toContain('continueInspection');
  });

  it('refuses a body over api.max_inspection_body_bytes with a 413 naming the limit, before the conductor sees it', async () => {
    const before = t.conductor.calls.length;
    const body = JSON.stringify({ inventory: { padding: 'x'.repeat(8000) } });
    const res = await t.app.inject({ method: 'POST', url: '/v1/continue_inspection', payload: body, headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(413);
    expect(res.headers['x-ingot-error-code']).toBe('BodyTooLarge');
    expect(res.body).toContain('Request body is too large (limit 4096 bytes).');
    expect(t.conductor.calls.length).toBe(before);
  });
});

describe('the agent endpoints’ rate limit and body limits', () => {
  const limited = useTestApi({ max_body_bytes: 1024, agent_rate_limit_per_minute: 3 });
  const V = { 'x-openstack-ironic-api-version': '1.72' };
  const from = (remoteAddress: string, url: string, payload?: object) =>
    limited.app.inject({ method: payload ? 'POST' : 'GET', url, headers: V, remoteAddress, ...(payload ? { payload } : {}) });
  const beat = { callback_url: 'http://192.0.2.10:9999', agent_token: 'x'.repeat(43), agent_version: '10.0.0' };

  it('answers 429 in the envelope once one address sent more than api.agent_rate_limit_per_minute to them, counted together', async () => {
    const answers = [
      await from('192.0.2.10', '/v1/lookup?addresses=52:54:00:00:00:01'),
      await from('192.0.2.10', '/v1/heartbeat/n1', beat),
      await from('192.0.2.10', '/v1/continue_inspection', { inventory: {} }),
    ];
    expect(answers.map((r) => r.statusCode)).not.toContain(429);
    const calls = limited.conductor.calls.length;
    const refused = await from('192.0.2.10', '/v1/heartbeat/n1', beat);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['x-ingot-error-code']).toBe('RateLimited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(faultString(refused.body)).toMatch(/^Too many requests from 192\.0\.2\.10 to the agent endpoints \(at most 3 a minute\); retry in \d+ s\.$/);
    expect((await from('192.0.2.10', '/v1/lookup?addresses=52:54:00:00:00:01')).statusCode).toBe(429);
    expect(limited.conductor.calls.length).toBe(calls);
    // Other addresses, loopback (exempt by default) and the rest of the API are not limited.
    expect((await from('192.0.2.11', '/v1/heartbeat/n1', beat)).statusCode).not.toBe(429);
    for (let i = 0; i < 5; i++) expect((await from('127.0.0.1', '/v1/heartbeat/n1', beat)).statusCode).not.toBe(429);
    expect((await from('192.0.2.10', '/v1/nodes')).statusCode).toBe(200);
  });

  it('refuses a heartbeat body over api.max_body_bytes with a 413 in the envelope', async () => {
    const res = await from('192.0.2.20', '/v1/heartbeat/n1', { ...beat, agent_status_message: 'x'.repeat(2000) });
    expect(res.statusCode).toBe(413);
    expect(res.headers['x-ingot-error-code']).toBe('BodyTooLarge');
    expect(faultString(res.body)).toBe('Request body is too large (limit 1024 bytes).');
  });
});
