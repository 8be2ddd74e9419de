import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';

function capture(): { stream: Writable; text: () => string } {
  let out = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      out += chunk.toString('utf8');
      done();
    },
  });
  return { stream, text: () => out };
}

describe('createLogger', () => {
  it('masks secrets in messages and logged objects at every level', () => {
    const { stream, text } = capture();
    const log = createLogger('trace', stream);
    log.trace({ driver_info: { ipmi_password: 'hunter2-trace', ipmi_username: 'admin' } }, 'node updated');
    log.debug('redfish said: login failed for password=hunter2-debug');
    log.warn({ err: new Error('GET http://user:hunter2-url@10.0.0.9/img failed') }, 'download failed');
    log.error({ body: { agent_token: 'hunter2-token' } }, 'heartbeat refused');
    const out = text();
    expect(out.trim().split('\n')).toHaveLength(4);
    for (const secret of ['hunter2-trace', 'hunter2-debug', 'hunter2-url', 'hunter2-token']) expect(out).not.toContain(secret);
    expect(out).toContain('"ipmi_username":"admin"');
    expect(out).toContain('http://user:******@10.0.0.9/img');
  });
});
