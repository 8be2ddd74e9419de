import { describe, expect, it } from 'vitest';
import { DIALECTS, useTestStore } from '../../test/support/stores.js';
import { newUuid } from '../shared/ids.js';
import { codeOf } from './error-code.test-support.js';

describe.each(DIALECTS)('chassis, conductors and history on %s', (dialect) => {
  const store = useTestStore(dialect);

  it('chassis CRUD; a chassis with nodes cannot be deleted', async () => {
    const c = await store.chassis.create({ description: 'rack', extra: { row: 3 } });
    expect(await store.chassis.get(c.uuid)).toEqual(c);
    expect(await store.chassis.getById(c.id)).toEqual(c);
    expect((await codeOf(store.chassis.create({ uuid: c.uuid }))).code).toBe('ChassisAlreadyExists');
    const u = await store.chassis.update(c.uuid, { description: 'rack 2' });
    expect(u.description).toBe('rack 2');
    expect(u.extra).toEqual({ row: 3 });
    const n = await store.nodes.create({ driver: 'fake-hardware', chassis_id: c.id });
    expect(await codeOf(store.chassis.delete(c.uuid))).toMatchObject({ code: 'ChassisNotEmpty' });
    expect((await codeOf(store.nodes.create({ driver: 'fake-hardware', chassis_id: 777777 }))).code).toBe('ChassisNotFound');
    await store.nodes.delete(n.uuid);
    const d = await store.chassis.create({});
    expect((await store.chassis.list({ limit: 10 })).map((x) => x.uuid)).toEqual([c.uuid, d.uuid]);
    expect((await store.chassis.list({ limit: 10, marker: c.uuid })).map((x) => x.uuid)).toEqual([d.uuid]);
    await store.chassis.delete(c.uuid);
    expect(await codeOf(store.chassis.get(c.uuid))).toEqual({ code: 'ChassisNotFound', message: `Chassis ${c.uuid} could not be found.` });
    expect((await codeOf(store.chassis.delete(c.uuid))).code).toBe('ChassisNotFound');
    expect((await codeOf(store.chassis.update(c.uuid, {}))).code).toBe('ChassisNotFound');
  });

  it('conductors register (upsert), heartbeat, unregister, and go stale', async () => {
    const a = await store.conductors.register('cond-a', '', ['fake-hardware']);
    expect(a).toMatchObject({ hostname: 'cond-a', online: true, drivers: ['fake-hardware'], conductor_group: '' });
    await store.conductors.unregister('cond-a');
    expect((await store.conductors.get('cond-a')).online).toBe(false);
    const again = await store.conductors.register('cond-a', 'g1', ['fake-hardware', 'ipmi']);
    expect(again).toMatchObject({ id: a.id, online: true, conductor_group: 'g1', drivers: ['fake-hardware', 'ipmi'] });
    await store.conductors.register('cond-b', '', []);
    await new Promise((r) => setTimeout(r, 5));
    const cutoff = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    await store.conductors.touch('cond-b');
    expect((await store.conductors.listStale(cutoff)).map((c) => c.hostname)).toEqual(['cond-a']);
    await store.conductors.unregister('cond-a');
    expect(await store.conductors.listStale(cutoff)).toEqual([]);
    expect((await store.conductors.list({ limit: 10 })).map((c) => c.hostname)).toEqual(['cond-a', 'cond-b']);
    expect((await store.conductors.list({ limit: 10, marker: 'cond-a' })).map((c) => c.hostname)).toEqual(['cond-b']);
    expect((await store.conductors.list({ limit: 10, sortKey: 'hostname', sortDir: 'desc' })).map((c) => c.hostname)).toEqual(['cond-b', 'cond-a']);
    expect(await codeOf(store.conductors.get('nope'))).toEqual({ code: 'ConductorNotFound', message: 'Conductor nope could not be found.' });
    expect((await codeOf(store.conductors.touch('nope'))).code).toBe('ConductorNotFound');
  });

  it('history is listed oldest first, pages by marker, and is per node', async () => {
    const n = await store.nodes.create({ driver: 'fake-hardware' });
    const m = await store.nodes.create({ driver: 'fake-hardware' });
    const base = Date.parse('2026-01-01T00:00:00Z');
    const times = [3, 1, 2, 1].map((s) => new Date(base + s * 1000).toISOString());
    const recs = [];
    for (const [i, t] of times.entries()) {
      recs.push(await store.history.record({
        node_id: n.id, severity: i === 0 ? 'ERROR' : 'INFO', event_type: 'provisioning', event: `e${i}`,
        conductor: 'c1', user: null, duration_ms: i === 0 ? 5_000_000_000 : i, created_at: t,
      }));
    }
    await store.history.record({ node_id: m.id, severity: 'INFO', event_type: 'power', event: 'other', conductor: null, user: 'u', duration_ms: null });
    expect(recs[0]!.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(recs[0]!.duration_ms).toBe(5_000_000_000);
    const events = (await store.history.list(n.id, { limit: 10 })).map((e) => e.event);
    expect(events).toEqual(['e1', 'e3', 'e2', 'e0']);
    const first = await store.history.list(n.id, { limit: 2 });
    expect(first.map((e) => e.event)).toEqual(['e1', 'e3']);
    expect((await store.history.list(n.id, { limit: 2, marker: first[1]!.uuid })).map((e) => e.event)).toEqual(['e2', 'e0']);
    expect(await store.history.get(n.id, recs[2]!.uuid)).toEqual(recs[2]);
    expect((await codeOf(store.history.get(m.id, recs[2]!.uuid))).code).toBe('HistoryNotFound');
    expect((await codeOf(store.history.list(n.id, { limit: 2, marker: newUuid() }))).code).toBe('HistoryNotFound');
    const now = await store.history.record({ node_id: n.id, severity: 'INFO', event_type: 'x', event: 'now', conductor: null, user: null, duration_ms: null });
    expect(Date.parse(now.created_at)).toBeGreaterThan(base);
    expect((await codeOf(store.history.record({ node_id: 999999, severity: 'INFO', event_type: 'x', event: 'y', conductor: null, user: null, duration_ms: null }))).code).toBe('NodeNotFound');
  });
});
