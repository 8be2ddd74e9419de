import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import bcrypt from 'bcryptjs';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IngotError } from '../../shared/errors.js';
import { httpBasicStrategy, type HttpBasicOptions } from './http-basic.js';
import type { AuthStrategy, Identity } from './strategy.js';

let dir: string;
let file: string;
let logged: string[];
const logger = () => pino({ level: 'info' }, new Writable({ write: (chunk, _e, cb) => (logged.push(String(chunk)), cb()) }));
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ingot-htpasswd-'));
  file = path.join(dir, 'htpasswd');
  logged = [];
  await writeFile(file, `alice:${bcrypt.hashSync('wonderland', 4)}\nbob:${bcrypt.hashSync('builder', 4).replace('$2b$', '$2y$')}\n`);
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });
const strategy = (opts: Partial<HttpBasicOptions> = {}) => httpBasicStrategy({ path: file, logger: logger(), recheckMs: 0, ...opts });
/** The error a refused authentication throws (synchronously or not). */
async function refusal(s: AuthStrategy, headers: Record<string, string>): Promise<IngotError> {
  try {
    await s.authenticate(headers);
  } catch (err) {
    return err as IngotError;
  }
  throw new Error('authenticated');
}

describe('http_basic', () => {
  it('lets in the users of the file, each an admin of the whole system, as Ironic does', async () => {
    const s = strategy();
    expect(await s.authenticate(basic('alice', 'wonderland'))).toEqual({ user: 'alice', roles: ['admin'], is_admin: true, system_scope: 'all' });
    expect(await s.authenticate(basic('bob', 'builder'))).toMatchObject({ user: 'bob' });
    expect(await s.authenticate({ authorization: `  bAsIc   ${Buffer.from('alice:wonderland').toString('base64')} ` })).toMatchObject({ user: 'alice' });
  });

  it('refuses as ironic-lib does: 401 without credentials or with wrong ones, 400 for a header that does not parse', async () => {
    const s = strategy();
    const cases: [Record<string, string>, string, string][] = [
      [{}, 'Unauthorized', 'Authorization required'],
      [basic('alice', 'n0t-the-password'), 'Unauthorized', 'Incorrect username or password'],
      [basic('mallory', 'wonderland'), 'Unauthorized', 'Incorrect username or password'],
      [basic('alice', ''), 'Unauthorized', 'Incorrect username or password'],
      [{ authorization: 'Basic' }, 'InvalidParameterValue', 'Could not parse Authorization header'],
      [{ authorization: 'Bearer abc' }, 'InvalidParameterValue', 'Unsupported authorization type "Bearer"'],
      [{ authorization: 'Basic not*base64' }, 'InvalidParameterValue', 'Could not decode authorization token'],
      [{ authorization: `Basic ${Buffer.from('no-colon').toString('base64')}` }, 'InvalidParameterValue', 'Could not decode authorization token'],
      [{ authorization: `Basic ${Buffer.from([0xff, 0x3a, 0x61]).toString('base64')}` }, 'InvalidParameterValue', 'Could not decode authorization token'],
      [{ authorization: `Basic ${Buffer.concat([Buffer.from('alice:'), Buffer.from([0xff])]).toString('base64')}` }, 'Unauthorized', 'Incorrect username or password'],
    ];
    for (const [headers, code, message] of cases) expect(await refusal(s, headers), JSON.stringify(headers)).toMatchObject({ code, message });
    expect(logged.join('')).not.toMatch(/wonderland|n0t-the-password/);
    expect(logged.join('')).toMatch(/wrong password for alice/);
  });

  it('checks bcrypt once per pair and then answers from memory, never for a wrong pair, and forgets after the lifetime', async () => {
    let now = 1_000_000;
    const s = strategy({ recheckMs: 60_000, cacheTtlMs: 1000, now: () => now });
    expect(s.authenticate(basic('alice', 'wonderland'))).toBeInstanceOf(Promise);
    await s.authenticate(basic('alice', 'wonderland'));
    // Remembered: answered at once, without bcrypt.
    const again = s.authenticate(basic('alice', 'wonderland')) as Identity;
    expect(again).not.toBeInstanceOf(Promise);
    expect(again.user).toBe('alice');
    const wrong = s.authenticate(basic('alice', 'wonderlanD'));
    expect(wrong).toBeInstanceOf(Promise);
    await expect(wrong).rejects.toMatchObject({ code: 'Unauthorized' });
    await expect(s.authenticate(basic('alice', 'wonderlanD'))).rejects.toMatchObject({ code: 'Unauthorized' });
    now += 1001;
    expect(s.authenticate(basic('alice', 'wonderland'))).toBeInstanceOf(Promise);
  });

  it('keeps at most cacheSize pairs', async () => {
    const s = strategy({ recheckMs: 60_000, cacheSize: 1 });
    await s.authenticate(basic('alice', 'wonderland'));
    await s.authenticate(basic('bob', 'builder'));
    expect(s.authenticate(basic('bob', 'builder'))).not.toBeInstanceOf(Promise);
    expect(s.authenticate(basic('alice', 'wonderland'))).toBeInstanceOf(Promise);
  });

  it('reads the file again when it changes: a removed user is out at once, a new one in; a broken file lets nobody in until fixed', async () => {
    const s = strategy();
    await s.authenticate(basic('alice', 'wonderland'));
    await writeFile(file, `carol:${bcrypt.hashSync('c4rol', 4)}\n`);
    expect(await refusal(s, basic('alice', 'wonderland'))).toMatchObject({ code: 'Unauthorized' });
    expect(await s.authenticate(basic('carol', 'c4rol'))).toMatchObject({ user: 'carol' });

    await writeFile(file, `carol:${bcrypt.hashSync('c4rol', 4)}\ndave:plain-text-password\n`);
    expect(await refusal(s, basic('carol', 'c4rol'))).toMatchObject({ code: 'Unauthorized' });
    expect(logged.join('')).toMatch(/nobody can log in until .* is fixed: .*line 2: only bcrypt digested passwords are supported for dave/);
    expect(logged.join('')).not.toContain('plain-text-password');

    await writeFile(file, `carol:${bcrypt.hashSync('c4rol', 4)}\n`);
    expect(await s.authenticate(basic('carol', 'c4rol'))).toMatchObject({ user: 'carol' });
  });

  it('refuses to start on a file that does not read or parse', async () => {
    expect(() => strategy({ path: path.join(dir, 'missing') })).toThrow(/api.http_basic_auth_user_file: cannot read .*missing: ENOENT/);
    await writeFile(file, 'alice:$1$md5$crypt\n');
    expect(() => strategy()).toThrow(/line 1: only bcrypt digested passwords are supported for alice/);
  });
});
