import { Migrator, sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS, emptyDatabase, type Dialect } from '../../../test/support/stores.js';
import { newUuid } from '../../shared/ids.js';
import { openStore } from '../open-store.js';
import { nodeDisablePowerOffMigration } from './0006-node-disable-power-off.js';
import { migrationProvider } from './migration-provider.js';

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
