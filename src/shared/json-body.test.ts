import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { parseJsonBodies } from './json-body.js';

function echo(malformed?: (err: Error) => Error) {
  const app = Fastify({ logger: false, bodyLimit: 64 });
  parseJsonBodies(app, malformed);
  app.post('/', async (req) => ({ body: req.body === undefined ? 'none' : req.body }));
  app.setErrorHandler((err: Error & { statusCode?: number }, _req, reply) => reply.code(err.statusCode ?? 400).send({ error: err.name, message: err.message }));
  return app;
}

describe('parseJsonBodies', () => {
  it('reads JSON whatever the Content-Type says, or with none', async () => {
    const app = echo();
    for (const headers of [{ 'content-type': 'application/json' }, { 'content-type': 'text/plain' }, {}]) {
      const res = await app.inject({ method: 'POST', url: '/', headers, payload: '{"a":1}' });
      expect(res.json()).toEqual({ body: { a: 1 } });
    }
  });

  it('takes a blank body as no body', async () => {
    const res = await echo().inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, payload: ' \n' });
    expect(res.json()).toEqual({ body: 'none' });
  });

  it('fails a body that is not JSON with the SyntaxError, or what the server maps it to', async () => {
    const plain = await echo().inject({ method: 'POST', url: '/', payload: '{nope' });
    expect(plain.json()).toMatchObject({ error: 'SyntaxError' });
    const mapped = await echo(() => Object.assign(new Error('bad body'), { name: 'Malformed', statusCode: 422 })).inject({ method: 'POST', url: '/', payload: '{nope' });
    expect(mapped.statusCode).toBe(422);
    expect(mapped.json()).toEqual({ error: 'Malformed', message: 'bad body' });
  });

  it("keeps the instance's body limit", async () => {
    const res = await echo().inject({ method: 'POST', url: '/', payload: JSON.stringify({ a: 'x'.repeat(100) }) });
    expect(res.statusCode).toBe(413);
  });
});
