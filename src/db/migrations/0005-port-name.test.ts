import { Migrator, sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS, emptyDatabase, type Dialect } from '../../../test/support/stores.js';
import { newUuid } from '../../shared/ids.js';
import { openStore } from '../open-store.js';
import { codeOf } from '../error-code.test-support.js';
import { portNameMigration } from './0005-port-name.js';
import { migrationProvider } from './migration-provider.js';

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
