import { rmSync } from 'node:fs';
import { Migrator } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { DIALECTS, useTestStore, tempDataDir } from '../../test/support/stores.js';
import type { Node } from '../domain/node.js';
import { newUuid } from '../shared/ids.js';
import { initialMigration } from './migrations/0001-initial.js';
import { openStore } from './open-store.js';
import { openSqliteDialect } from './sqlite-dialect.js';
import type { NodeFilter, NodeKey, Page } from './store.js';
import { codeOf } from './error-code.test-support.js';

const keyOf = (n: Node): NodeKey => ({
  id: n.id, uuid: n.uuid, version: n.version, driver: n.driver, conductor_group: n.conductor_group, chassis_id: n.chassis_id,
});

describe.each(DIALECTS)('node row versions, keys and getMany on %s', (dialect) => {
  const store = useTestStore(dialect, { emptyNodes: true });

  it('starts at version 0 and every write adds one, in the row', async () => {
    const n = await store.nodes.create({ driver: 'fake-hardware', name: 'v' });
    expect(n.version).toBe(0);
    const version = async () => (await store.nodes.get(n.uuid)).version;

    const u = await store.nodes.update(n.uuid, { description: 'one' });
    expect(u.version).toBe(1);
    expect(await version()).toBe(1);

    // A record read back may be passed as changes: its version is not written, the store bumps it.
    const { id: _id, uuid: _uuid, created_at: _c, updated_at: _u, ...rest } = await store.nodes.get(n.uuid);
    expect((await store.nodes.update(n.uuid, { ...rest, version: 100 } as never)).version).toBe(2);
    expect((await store.nodes.create({ driver: 'fake-hardware', version: 7 } as never)).version).toBe(0);

    expect((await store.nodes.reserve(n.uuid, 'h1')).version).toBe(3);
    expect((await store.nodes.update(n.uuid, { power_state: 'power on' }, { reservation: 'h1' })).version).toBe(4);
    // A conditional write that does not match changes nothing.
    expect((await codeOf(store.nodes.update(n.uuid, { power_state: 'power off' }, { reservation: 'h2' }))).code).toBe('NodeLocked');
    expect(await store.nodes.release(n.uuid, 'h2')).toBe(false);
    expect(await version()).toBe(4);
    expect(await store.nodes.release(n.uuid, 'h1')).toBe(true);
    expect(await version()).toBe(5);

    await store.nodes.reserve(n.uuid, 'dead');
    expect(await store.nodes.releaseAll('dead')).toEqual([n.uuid]);
    expect(await version()).toBe(7);

    await store.nodes.setTraits(n.id, ['CUSTOM_X']);
    expect(await version()).toBe(8);
    expect((await store.nodes.get(n.uuid)).traits).toEqual(['CUSTOM_X']);
  });

  it('does not sort by the row version', async () => {
    expect((await codeOf(store.nodes.list({}, { limit: 5, sortKey: 'version' }))).code).toBe('InvalidParameterValue');
    expect((await codeOf(store.nodes.listKeys({}, { limit: 5, sortKey: 'version' }))).code).toBe('InvalidParameterValue');
  });

  it('lists keys exactly as list lists nodes: filters, sort keys, directions, markers and limits', async () => {
    const ch = await store.chassis.create({ description: 'rack' });
    const spec = [
      { name: 'k1', resource_class: 'b', conductor_group: 'g1', chassis_id: ch.id, provision_state: 'available' },
      { name: 'k2', resource_class: null, driver: 'ipmi', maintenance: true },
      { name: 'k3', resource_class: 'a', conductor_group: 'g1', owner: 'o1', description: 'Big box' },
      { name: 'k4', resource_class: 'b', driver: 'ipmi', chassis_id: ch.id, provision_state: 'available' },
      { name: 'k5', resource_class: null, shard: 's1', owner: 'o1' },
      { name: 'k6', resource_class: 'c', provision_state: 'active', instance_uuid: newUuid() },
      { name: null, resource_class: 'a' },
    ] as const;
    for (const s of spec) await store.nodes.create({ driver: 'fake-hardware', ...s });
    const first = await store.nodes.list({}, { limit: 1 });
    await store.nodes.update(first[0]!.uuid, { extra: { touched: true } });
    await store.nodes.reserve('k3', 'h');

    const filters: NodeFilter[] = [
      {}, { driver: 'ipmi' }, { conductor_group: 'g1' }, { chassis_id: ch.id }, { maintenance: false }, { owner: 'o1' },
      { provision_states: ['available', 'active'] }, { provision_states: [] }, { associated: true }, { sharded: false },
      { description_contains: 'big' }, { reservation: 'h' }, { resource_class: 'b', driver: 'fake-hardware' },
    ];
    const sorts: Pick<Page, 'sortKey' | 'sortDir'>[] = [
      {}, { sortDir: 'desc' }, { sortKey: 'resource_class' }, { sortKey: 'resource_class', sortDir: 'desc' },
      { sortKey: 'name', sortDir: 'desc' }, { sortKey: 'name' }, { sortKey: 'provision_state' }, { sortKey: 'updated_at', sortDir: 'desc' },
    ];
    let compared = 0;
    for (const filter of filters) {
      for (const sort of sorts) {
        for (const limit of [0, 1, 2, 3]) {
          // Walk every page both ways; each page must match, and so must the markers it leads to.
          let marker: string | undefined;
          for (let guard = 0; guard < 20; guard++) {
            const page: Page = { limit, marker, ...sort };
            const nodes = await store.nodes.list(filter, page);
            const keys = await store.nodes.listKeys(filter, page);
            expect(keys, JSON.stringify({ filter, page })).toEqual(nodes.map(keyOf));
            compared++;
            if (limit === 0 || nodes.length < limit) break;
            marker = nodes[nodes.length - 1]!.uuid;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(filters.length * sorts.length * 4);
    const all = await store.nodes.listKeys({}, { limit: 0 });
    expect(all.find((k) => k.uuid === first[0]!.uuid)?.version).toBe(1);
    expect(all.filter((k) => k.chassis_id === ch.id)).toHaveLength(2);

    expect((await codeOf(store.nodes.listKeys({}, { limit: 5, sortKey: 'driver_info' }))).code).toBe('InvalidParameterValue');
    expect((await codeOf(store.nodes.listKeys({}, { limit: 5, marker: newUuid() }))).code).toBe('NodeNotFound');
  });

  it('reads many nodes by id: whole, decoded, missing ids left out, any count', async () => {
    const created: Node[] = [];
    for (let i = 0; i < 70; i++) {
      created.push(await store.nodes.create({ driver: 'fake-hardware', name: `m${i}`, extra: { i }, maintenance: i % 2 === 0 }));
    }
    await store.nodes.setTraits(created[3]!.id, ['CUSTOM_T']);
    const byId = new Map<number, Node>();
    for (const n of await store.nodes.list({}, { limit: 0 })) byId.set(n.id, n);
    const sorted = (nodes: Node[]) => [...nodes].sort((a, b) => a.id - b.id);

    expect(await store.nodes.getMany([])).toEqual([]);
    // Counts on and between the padded statement sizes.
    for (const count of [1, 2, 4, 5, 16, 17, 64, 65, 70]) {
      const ids = created.slice(0, count).map((n) => n.id).reverse();
      const got = await store.nodes.getMany(ids);
      expect(got).toHaveLength(count);
      expect(sorted(got)).toEqual(sorted(ids.map((id) => byId.get(id)!)));
    }
    // Ids with gaps between them.
    for (const step of [2, 5]) {
      const ids = created.filter((_, i) => i % step === 0).map((n) => n.id);
      expect(sorted(await store.nodes.getMany(ids)), `step ${step}`).toEqual(sorted(ids.map((id) => byId.get(id)!)));
    }
    expect((await store.nodes.getMany([created[3]!.id]))[0]).toMatchObject({ traits: ['CUSTOM_T'], version: 1, extra: { i: 3 } });
    // Unknown ids are left out; repeated ids give one node.
    const few = await store.nodes.getMany([987654, created[5]!.id, created[5]!.id, 987655]);
    expect(few.map((n) => n.name)).toEqual(['m5']);
    // More ids than one statement takes: read in several statements.
    const many = [...Array.from({ length: 1100 }, (_, i) => 1_000_000 + i), ...created.map((n) => n.id)];
    expect(sorted(await store.nodes.getMany(many))).toEqual(sorted(created.map((n) => byId.get(n.id)!)));
  });
});

describe('migration 0002 on an existing database', () => {
  let dir: string | undefined;
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('adds version 0 to the nodes enrolled before it', async () => {
    dir = tempDataDir();
    const old = openSqliteDialect({ dataDir: dir, busyTimeoutMs: 1000 });
    try {
      const migrator = new Migrator({ db: old.db, provider: { getMigrations: async () => ({ '0001-initial': initialMigration(old) }) } });
      const { error } = await migrator.migrateToLatest();
      expect(error).toBeUndefined();
      await old.db
        .insertInto('nodes')
        .values({ uuid: newUuid(), driver: 'fake-hardware', name: 'before', created_at: '2026-01-01T00:00:00.000Z' } as never)
        .execute();
    } finally {
      await old.db.destroy();
    }
    const store = await openStore({ dataDir: dir });
    try {
      const n = await store.nodes.get('before');
      expect(n.version).toBe(0);
      expect((await store.nodes.update(n.uuid, { description: 'after' })).version).toBe(1);
    } finally {
      await store.close();
    }
  });
});
