import { rmSync } from 'node:fs';
import { Migrator, sql, type Kysely } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS, tempDataDir, testPgUrl, type Dialect } from '../../../test/support/stores.js';
import { newUuid } from '../../shared/ids.js';
import type { StoreDialect } from '../dialect.js';
import { openStore } from '../open-store.js';
import { openPostgresDialect } from '../postgres-dialect.js';
import { openSqliteDialect } from '../sqlite-dialect.js';
import { nodeDisablePowerOffMigration } from './0006-node-disable-power-off.js';
import { migrationProvider } from './index.js';

/** A fresh, empty database on `dialect`, how a store opens it, and how to throw it away. */
async function emptyDatabase(dialect: Dialect): Promise<{ open: () => Promise<StoreDialect>; store: Parameters<typeof openStore>[0]; drop: () => Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = tempDataDir();
    return {
      open: async () => openSqliteDialect({ dataDir: dir, busyTimeoutMs: 1000 }),
      store: { dataDir: dir },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const admin = testPgUrl();
  const name = `ingot_test_mig6_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const run = async (statement: string) => {
    const c = new pg.Client({ connectionString: admin, connectionTimeoutMillis: 5000 });
    try {
      await c.connect();
      await c.query(statement);
    } catch (err) {
      throw new Error(`PostgreSQL at ${admin.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@')}: ${(err as Error).message} (run scripts/start-postgres.sh)`, { cause: err });
    } finally {
      await c.end().catch(() => {});
    }
  };
  await run(`CREATE DATABASE "${name}"`);
  const u = new URL(admin);
  u.pathname = `/${name}`;
  const url = u.toString();
  return {
    open: () => openPostgresDialect({ url, poolSize: 2 }),
    store: { url, poolSize: 2 },
    drop: () => run(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

/** The names of the columns of `nodes`, as the database reports them. */
async function nodeColumns(db: Kysely<unknown>, dialect: Dialect): Promise<string[]> {
  const q = dialect === 'sqlite'
    ? sql<{ name: string }>`select name from pragma_table_info('nodes')`
    : sql<{ name: string }>`select column_name as name from information_schema.columns where table_name = 'nodes'`;
  return (await q.execute(db)).rows.map((r) => r.name);
}

describe.each(DIALECTS)('migration 0006 (node disable_power_off) on %s', (dialect) => {
  let drop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await drop?.();
    drop = undefined;
  });

  it('adds disable_power_off as false to existing nodes, refuses NULL, and drops it on the way back', async () => {
    const target = await emptyDatabase(dialect);
    drop = target.drop;
    const old = await target.open();
    try {
      const all = await migrationProvider(old).getMigrations();
      const before = Object.fromEntries(Object.entries(all).filter(([name]) => name < '0006'));
      const { error } = await new Migrator({ db: old.db, provider: { getMigrations: async () => before } }).migrateToLatest();
      expect(error).toBeUndefined();
      expect(await nodeColumns(old.db as Kysely<unknown>, dialect)).not.toContain('disable_power_off');
      await old.db
        .insertInto('nodes')
        .values({ uuid: newUuid(), driver: 'fake-hardware', name: 'n6', created_at: '2026-01-01T00:00:00.000Z' } as never)
        .execute();
    } finally {
      await old.db.destroy();
    }

    const store = await openStore(target.store);
    try {
      const node = await store.nodes.get('n6');
      expect(node.disable_power_off).toBe(false);
      expect((await store.nodes.update(node.uuid, { disable_power_off: true })).disable_power_off).toBe(true);
      expect((await store.nodes.create({ driver: 'fake-hardware', name: 'n6b' })).disable_power_off).toBe(false);
    } finally {
      await store.close();
    }

    const after = await target.open();
    try {
      const db = after.db as Kysely<unknown>;
      await expect(sql`update nodes set disable_power_off = null where name = 'n6'`.execute(db)).rejects.toThrow(/null/i);
      await nodeDisablePowerOffMigration().down!(db);
      expect(await nodeColumns(db, dialect)).not.toContain('disable_power_off');
    } finally {
      await after.db.destroy();
    }
  });
});
