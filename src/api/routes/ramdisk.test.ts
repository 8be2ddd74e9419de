import { describe, expect, it } from 'vitest';
import { useTestApi } from '../app.test-support.js';

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
