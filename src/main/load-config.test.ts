import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envName, loadConfig } from './load-config.js';

describe('loadConfig', () => {
  it('fills defaults', () => {
    const c = loadConfig({ env: {} });
    expect(c.api.port).toBe(6385);
    expect(c.database.data_dir).toBe('./ingot-data');
    expect(c.database.url).toBe('');
    expect(Object.isFrozen(c.api)).toBe(true);
  });

  it('lets flags beat the environment, which beats the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ingot-config-'));
    const file = join(dir, 'ingot.json');
    writeFileSync(file, JSON.stringify({ api: { port: 7000, host: '127.0.0.1' }, database: { data_dir: '/from/file' } }));
    const c = loadConfig({ file, env: { [envName('api', 'port')]: '7001', INGOT_DATABASE_DATA_DIR: '/from/env' }, flags: { api: { port: 7002 } } });
    expect(c.api.port).toBe(7002);
    expect(c.api.host).toBe('127.0.0.1');
    expect(c.database.data_dir).toBe('/from/env');
  });

  it('rejects bad values naming the key and its source', () => {
    expect(() => loadConfig({ env: { INGOT_API_PORT: 'eighty' } })).toThrow(/INGOT_API_PORT.*number/);
    expect(() => loadConfig({ env: {}, flags: { api: { port: 70000 } } })).toThrow(/api\.port/);
    expect(() => loadConfig({ env: {}, flags: { api: { prot: 1 } } })).toThrow(/unknown key "api\.prot"/);
  });

  it('rejects a config file that is not JSON', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ingot-config-'));
    const file = join(dir, 'bad.json');
    writeFileSync(file, '{ api: ');
    expect(() => loadConfig({ file, env: {} })).toThrow(/not valid JSON/);
    expect(() => loadConfig({ file: join(dir, 'missing.json'), env: {} })).toThrow(/cannot read config file/);
  });

  it('takes the authentication settings with Ironic’s names, from the environment too; noauth on loopback by default', () => {
    const d = loadConfig({ env: {} });
    expect(d.api).toMatchObject({ host: '127.0.0.1', auth_strategy: 'noauth', allow_insecure_noauth: false });
    const c = loadConfig({ env: { INGOT_API_AUTH_STRATEGY: 'http_basic', INGOT_API_HTTP_BASIC_AUTH_USER_FILE: '/etc/ingot/users', INGOT_API_ALLOW_INSECURE_NOAUTH: 'true' } });
    expect(c.api).toMatchObject({ auth_strategy: 'http_basic', http_basic_auth_user_file: '/etc/ingot/users', allow_insecure_noauth: true });
    expect(loadConfig({ env: {}, flags: { api: { auth_strategy: 'keystone' } } }).api.auth_strategy).toBe('keystone');
    expect(() => loadConfig({ env: { INGOT_API_AUTH_STRATEGY: 'ldap' } })).toThrow(/api\.auth_strategy = "ldap"/);
  });
});
