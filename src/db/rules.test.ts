import { describe, expect, it } from 'vitest';
import { DIALECTS, useTestStore } from '../../test/support/stores.js';
import { codeOf } from './error-code.test-support.js';

const action = { op: 'add-trait', args: { name: 'CUSTOM_X' } };

describe.each(DIALECTS)('inspection rules on %s', (dialect) => {
  const store = useTestStore(dialect);

  it('creates, reads, lists by phase and priority, updates and deletes Ironic-format rules', async () => {
    await store.inspectionRules.deleteAll();
    const a = await store.inspectionRules.create({ description: 'low', priority: 10, sensitive: false, phase: 'main', conditions: [], actions: [action] });
    const b = await store.inspectionRules.create({
      uuid: 'AAAAAAAA-0000-4000-8000-000000000001', description: null, priority: 90, sensitive: true, phase: 'main',
      conditions: [{ op: '!is-empty', args: { value: '{inventory[bmc_address]}' } }], actions: [action],
    });
    expect(b.uuid).toBe('aaaaaaaa-0000-4000-8000-000000000001');
    expect(b).toMatchObject({ sensitive: true, priority: 90, conditions: [{ op: '!is-empty' }], updated_at: null });
    expect((await store.inspectionRules.get(a.uuid)).actions).toEqual([action]);
    expect((await store.inspectionRules.list({}, { limit: 10, sortKey: 'priority', sortDir: 'desc' })).map((r) => r.uuid)).toEqual([b.uuid, a.uuid]);
    expect(await store.inspectionRules.list({ phase: 'other' }, { limit: 10 })).toEqual([]);
    const page2 = await store.inspectionRules.list({}, { limit: 1, marker: a.uuid });
    expect(page2.map((r) => r.uuid)).toEqual([b.uuid]);
    const updated = await store.inspectionRules.update(a.uuid, { priority: 20, description: 'raised' });
    expect(updated).toMatchObject({ priority: 20, description: 'raised' });
    expect(updated.updated_at).not.toBeNull();
    expect((await codeOf(store.inspectionRules.create({ uuid: b.uuid, description: null, priority: 0, sensitive: false, phase: 'main', conditions: [], actions: [action] }))).code)
      .toBe('InspectionRuleAlreadyExists');
    await store.inspectionRules.delete(a.uuid);
    expect((await codeOf(store.inspectionRules.get(a.uuid))).code).toBe('InspectionRuleNotFound');
    expect((await codeOf(store.inspectionRules.delete(a.uuid))).code).toBe('InspectionRuleNotFound');
    expect(await store.inspectionRules.deleteAll()).toBe(1);
    expect(await store.inspectionRules.all()).toEqual([]);
  });

  it('keeps legacy rules in creation order', async () => {
    await store.legacyRules.deleteAll();
    const first = await store.legacyRules.create({ description: 'one', scope: null, conditions: [], actions: [{ action: 'add-trait', name: 'CUSTOM_A' }] });
    const second = await store.legacyRules.create({ description: 'two', scope: 'rack1', conditions: [{ op: 'eq', field: 'cpu.count', value: 4 }], actions: [{ action: 'fail', message: 'no' }] });
    expect((await store.legacyRules.all()).map((r) => r.uuid)).toEqual([first.uuid, second.uuid]);
    expect(await store.legacyRules.get(second.uuid)).toMatchObject({ scope: 'rack1', conditions: [{ op: 'eq', field: 'cpu.count', value: 4 }] });
    const dup = await codeOf(store.legacyRules.create({ uuid: first.uuid, description: null, scope: null, conditions: [], actions: [] }));
    expect(dup).toMatchObject({ code: 'InspectionRuleAlreadyExists', message: `Rule with UUID ${first.uuid} already exists` });
    await store.legacyRules.delete(first.uuid);
    expect((await codeOf(store.legacyRules.get(first.uuid))).message).toBe(`Rule ${first.uuid} was not found`);
    expect(await store.legacyRules.deleteAll()).toBe(1);
  });
});
