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
import { codeOf } from '../test-helpers.js';
import { portNameMigration } from './0005-port-name.js';
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
  const name = `ingot_test_mig5_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
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

/** The SQL that defines index `name`, as the database reports it. */
async function indexDefinition(db: Kysely<unknown>, dialect: Dialect, name: string): Promise<string> {
  const q = dialect === 'sqlite'
    ? sql<{ def: string }>`select sql as def from sqlite_master where type = 'index' and name = ${name}`
    : sql<{ def: string }>`select indexdef as def from pg_indexes where indexname = ${name}`;
  const rows = (await q.execute(db)).rows;
  expect(rows).toHaveLength(1);
  return rows[0]!.def;
}

describe.each(DIALECTS)('migration 0005 (port name index) on %s', (dialect) => {
  let drop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await drop?.();
    drop = undefined;
  });

  it('makes the unique index on ports.name partial, keeps existing ports and still refuses a duplicate name', async () => {
    const target = await emptyDatabase(dialect);
    drop = target.drop;
    const old = await target.open();
    try {
      const all = await migrationProvider(old).getMigrations();
      const before = Object.fromEntries(Object.entries(all).filter(([name]) => name < '0005'));
      const { error } = await new Migrator({ db: old.db, provider: { getMigrations: async () => before } }).migrateToLatest();
      expect(error).toBeUndefined();
      expect(await indexDefinition(old.db as Kysely<unknown>, dialect, 'uq_ports__name')).not.toMatch(/where/i);
      const node = await old.db
        .insertInto('nodes')
        .values({ uuid: newUuid(), driver: 'fake-hardware', name: 'n5', created_at: '2026-01-01T00:00:00.000Z' } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const [mac, name] of [['52:54:00:00:05:01', null], ['52:54:00:00:05:02', null], ['52:54:00:00:05:03', 'eth0']] as const) {
        await old.db
          .insertInto('ports')
          .values({ uuid: newUuid(), address: mac, node_id: node.id, name, created_at: '2026-01-01T00:00:00.000Z' } as never)
          .execute();
      }
    } finally {
      await old.db.destroy();
    }

    const store = await openStore(target.store);
    try {
      const node = await store.nodes.get('n5');
      expect((await store.ports.list({ node_id: node.id }, { limit: 10 })).map((p) => p.name)).toEqual([null, null, 'eth0']);
      expect((await store.ports.get('eth0')).address).toBe('52:54:00:00:05:03');
      expect(await codeOf(store.ports.create({ address: '52:54:00:00:05:04', node_id: node.id, name: 'eth0' }))).toEqual({
        code: 'DuplicateName',
        message: 'A port with name eth0 already exists.',
      });
      await store.ports.create({ address: '52:54:00:00:05:05', node_id: node.id });
    } finally {
      await store.close();
    }

    const after = await target.open();
    try {
      expect(await indexDefinition(after.db as Kysely<unknown>, dialect, 'uq_ports__name')).toMatch(/unique[\s\S]*where[\s\S]*name[\s\S]*is not null/i);
      // The way back restores the plain unique index.
      await portNameMigration().down!(after.db as Kysely<unknown>);
      expect(await indexDefinition(after.db as Kysely<unknown>, dialect, 'uq_ports__name')).not.toMatch(/where/i);
    } finally {
      await after.db.destroy();
    }
  });
});
