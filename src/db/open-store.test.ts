import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestStore, tempDataDir } from '../../test/support/stores.js';
import { openStore, redactUrl } from './open-store.js';
import { codeOf } from './error-code.test-support.js';

describe('openStore', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('creates the SQLite file in a new data dir, and re-opening keeps data (migrations are idempotent)', async () => {
    const dir = `${tempDataDir()}/nested/data`;
    dirs.push(dir.replace(/\/nested\/data$/, ''));
    const first = await openStore({ dataDir: dir });
    expect(first.dialect).toBe('sqlite');
    const n = await first.nodes.create({ driver: 'fake-hardware', name: 'keep' });
    await first.close();
    await first.close();
    const second = await openStore({ dataDir: dir });
    expect((await second.nodes.get('keep')).uuid).toBe(n.uuid);
    await second.close();
    const third = await openStore({ url: '', dataDir: dir });
    expect(await third.nodes.count({})).toBe(1);
    await third.close();
  });

  it('rejects unsupported URLs naming them, without the password', async () => {
    const err = await codeOf(openStore({ url: 'mysql://root:secret@db/ingot' }));
    expect(err.code).toBe('ConfigInvalid');
    expect(err.message).toContain('mysql://root:***@db/ingot');
    expect(err.message).not.toContain('secret');
    expect(redactUrl('postgres://u:p@h:5432/d')).toBe('postgres://u:***@h:5432/d');
  });

  it('fails with ConfigInvalid when PostgreSQL cannot be reached', async () => {
    const err = await codeOf(openStore({ url: 'postgres://ingot:ingot@127.0.0.1:1/ingot' }));
    expect(err.code).toBe('ConfigInvalid');
    expect(err.message).toContain('127.0.0.1:1');
  });

  it('test stores name the fix when PostgreSQL is down', async () => {
    const saved = process.env.INGOT_TEST_PG_URL;
    process.env.INGOT_TEST_PG_URL = 'postgres://ingot:ingot@127.0.0.1:1/postgres';
    try {
      await expect(openTestStore('postgres')).rejects.toThrow(
        /PostgreSQL is not reachable at postgres:\/\/ingot:\*\*\*@127\.0\.0\.1:1\/postgres: run scripts\/start-postgres\.sh \(apt-get install postgresql\)/,
      );
    } finally {
      if (saved === undefined) delete process.env.INGOT_TEST_PG_URL;
      else process.env.INGOT_TEST_PG_URL = saved;
    }
  });
});
