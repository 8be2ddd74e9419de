import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../shared/logger.js';
import { loadConfig } from './load-config.js';
import { startServer } from './serve.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ingot-serve-auth-'));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

const config = (api: Record<string, unknown>) => loadConfig({ env: {}, flags: { api: { port: 0, inspector_port: 0, ...api }, database: { data_dir: dir } } });

describe('ingot serve and api.auth_strategy', () => {
  it('refuses noauth on an address others can reach, saying how to configure auth, before it opens anything', async () => {
    for (const host of ['0.0.0.0', '::', '192.0.2.10']) {
      await expect(startServer(config({ host }), silentLogger())).rejects.toMatchObject({
        code: 'ConfigInvalid',
        message: expect.stringMatching(new RegExp(`api.auth_strategy is "noauth" and api.host ${host.replace(/\./g, '\\.')} is not a loopback address.*INGOT_API_AUTH_STRATEGY.*api.allow_insecure_noauth`)),
      });
    }
    expect(await readdir(dir)).toEqual([]);
  });

  it('does not start with keystone yet, nor with an htpasswd file that is missing or malformed', async () => {
    await expect(startServer(config({ auth_strategy: 'keystone' }), silentLogger())).rejects.toThrow(/"keystone" is not implemented yet.*use "http_basic"/);
    await expect(startServer(config({ auth_strategy: 'http_basic', http_basic_auth_user_file: path.join(dir, 'none') }), silentLogger())).rejects.toThrow(/cannot read .*none/);
    expect(await readdir(dir)).toEqual([]);
  });
});
