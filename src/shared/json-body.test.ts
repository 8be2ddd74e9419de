import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { jsonDepth, MAX_JSON_DEPTH, parseJsonBodies } from './json-body.js';

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

  it('refuses a body nested deeper than MAX_JSON_DEPTH, counting no bracket inside a string', async () => {
    const app = Fastify({ logger: false, bodyLimit: 1 << 20 });
    parseJsonBodies(app);
    app.post('/', async (req) => ({ ok: req.body !== undefined }));
    app.setErrorHandler((err: Error, _req, reply) => reply.code(400).send({ error: err.name, message: err.message }));
    const nest = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect((await app.inject({ method: 'POST', url: '/', payload: nest(MAX_JSON_DEPTH) })).json()).toEqual({ ok: true });
    for (const n of [MAX_JSON_DEPTH + 1, 100_000]) {
      const res = await app.inject({ method: 'POST', url: '/', payload: nest(n) });
      expect(res.json()).toEqual({ error: 'SyntaxError', message: `arrays and objects nest deeper than ${MAX_JSON_DEPTH} levels` });
    }
    const quoted = JSON.stringify({ a: '['.repeat(5000), b: '\\"[[[' });
    expect((await app.inject({ method: 'POST', url: '/', payload: quoted })).json()).toEqual({ ok: true });
    expect(jsonDepth('{"a": [{"b": "]]]]"}]}')).toBe(3);
  });

  it('refuses a body that is not valid UTF-8 instead of replacing characters', async () => {
    const res = await echo().inject({ method: 'POST', url: '/', payload: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]) });
    expect(res.json()).toEqual({ error: 'SyntaxError', message: 'the body is not valid UTF-8' });
    const ok = await echo().inject({ method: 'POST', url: '/', payload: Buffer.from('{"a":"é"}') });
    expect(ok.json()).toEqual({ body: { a: 'é' } });
  });

  it('refuses a __proto__ key, however it is spelt, and NUL characters in keys and strings', async () => {
    const app = Fastify({ logger: false, bodyLimit: 1 << 20 });
    parseJsonBodies(app);
    app.post('/', async (req) => ({ ok: req.body !== undefined }));
    app.setErrorHandler((err: Error, _req, reply) => reply.code(400).send({ message: err.message }));
    const post = async (payload: string) => (await app.inject({ method: 'POST', url: '/', payload })).json() as unknown;
    for (const p of ['{"a": {"__proto__": {"x": 1}}}', '{"\\u005f_proto__": 1}', '[{"__proto\\u005f_": 1}]']) {
      expect(await post(p)).toEqual({ message: 'the key "__proto__" is not allowed' });
    }
    for (const p of ['{"a": "x\\u0000"}', '{"\\u0000": 1}', '["\\u0000"]']) {
      expect(await post(p)).toEqual({ message: 'strings may not contain NUL characters (\\u0000)' });
    }
    expect(await post('{"a": "__proto__", "b": "\\u00e9", "constructor": {"prototype": 1}}')).toEqual({ ok: true });
  });
});
