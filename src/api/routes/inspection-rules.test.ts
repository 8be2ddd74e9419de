import { describe, expect, it } from 'vitest';
import { useTestApi, faultString, version } from '../app.test-support.js';

const t = useTestApi();

const V = version('1.96');
const rule = {
  description: 'Dell BMC',
  priority: 40,
  conditions: [{ op: '!is-empty', args: { value: '{inventory[bmc_address]}' } }],
  actions: [{ op: 'set-attribute', args: { path: '/driver_info/redfish_address', value: 'https://{inventory[bmc_address]}' } }],
};
type RuleView = Record<string, unknown> & { uuid: string; links: { href: string; rel: string }[] };

describe('/v1/inspection_rules (1.96)', () => {
  it('creates, shows, lists, patches and deletes rules', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/v1/inspection_rules', headers: V, payload: rule });
    expect(created.statusCode).toBe(201);
    const body = created.json<RuleView>();
    expect(created.headers.location).toBe(`http://localhost:80/v1/inspection_rules/${body.uuid}`);
    expect(body).toMatchObject({
      description: 'Dell BMC', priority: 40, sensitive: false, phase: 'main', updated_at: null,
      conditions: [{ op: '!is-empty', args: { value: '{inventory[bmc_address]}' } }],
      actions: [{ op: 'set-attribute', args: rule.actions[0]?.args, loop: [] }],
    });
    expect(body.links.map((l) => l.rel)).toEqual(['self', 'bookmark']);

    const low = (await t.app.inject({ method: 'POST', url: '/v1/inspection_rules', headers: V, payload: { actions: [{ op: 'add-trait', args: { name: 'CUSTOM_X' } }] } })).json<RuleView>();
    const list = (await t.app.inject({ url: '/v1/inspection_rules?sort_key=priority&sort_dir=desc', headers: V })).json<{ inspection_rules: RuleView[] }>();
    expect(list.inspection_rules.map((r) => r.uuid)).toEqual([body.uuid, low.uuid]);
    expect(Object.keys(list.inspection_rules[0] ?? {}).sort()).toEqual(['description', 'links', 'phase', 'priority', 'uuid']);
    const detail = (await t.app.inject({ url: '/v1/inspection_rules?detail=true&limit=1', headers: V })).json<{ inspection_rules: RuleView[]; next?: string }>();
    expect(detail.inspection_rules[0]).toHaveProperty('actions');
    expect(detail.next).toContain(`marker=${body.uuid}`);
    const fields = (await t.app.inject({ url: `/v1/inspection_rules/${body.uuid}?fields=uuid,priority`, headers: V })).json<RuleView>();
    expect(Object.keys(fields).sort()).toEqual(['links', 'priority', 'uuid']);

    const patched = await t.app.inject({
      method: 'PATCH', url: `/v1/inspection_rules/${body.uuid}`, headers: V,
      payload: [{ op: 'replace', path: '/priority', value: 75 }, { op: 'add', path: '/actions/-', value: { op: 'add-trait', args: { name: 'CUSTOM_DELL' } } }],
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ priority: 75, actions: [{ op: 'set-attribute' }, { op: 'add-trait', args: { name: 'CUSTOM_DELL' } }] });
    expect(patched.json<RuleView>().updated_at).not.toBeNull();

    expect((await t.app.inject({ method: 'DELETE', url: `/v1/inspection_rules/${low.uuid}`, headers: V })).statusCode).toBe(204);
    const gone = await t.app.inject({ url: `/v1/inspection_rules/${low.uuid}`, headers: V });
    expect(gone.statusCode).toBe(404);
    expect(faultString(gone.body)).toBe(`Rule ${low.uuid} could not be found.`);
    expect((await t.app.inject({ method: 'DELETE', url: '/v1/inspection_rules', headers: V })).statusCode).toBe(204);
    expect((await t.app.inject({ url: '/v1/inspection_rules', headers: V })).json()).toEqual({ inspection_rules: [] });
  });

  it('hides a sensitive rule’s conditions and actions and refuses to unset the flag', async () => {
    const created = (await t.app.inject({ method: 'POST', url: '/v1/inspection_rules', headers: V, payload: { ...rule, sensitive: true } })).json<RuleView>();
    expect(created).toMatchObject({ sensitive: true, conditions: null, actions: null });
    const unset = await t.app.inject({ method: 'PATCH', url: `/v1/inspection_rules/${created.uuid}`, headers: V, payload: [{ op: 'replace', path: '/sensitive', value: false }] });
    expect(unset.statusCode).toBe(400);
    expect(faultString(unset.body)).toBe('Inspection rules cannot have the sensitive flag unset.');
    const stored = await t.store.inspectionRules.get(created.uuid);
    expect(stored.actions).toEqual(rule.actions);
  });

  it('refuses bad rules with the field at fault, and changes nothing', async () => {
    const before = (await t.store.inspectionRules.all()).length;
    const cases: [unknown, RegExp][] = [
      [{ actions: [] }, /actions/],
      [{ actions: [{ op: 'explode', args: {} }] }, /explode/],
      [{ conditions: [{ op: 'matches', args: { value: 'x', regex: '(' } }], actions: [{ op: 'add-trait', args: { name: 'CUSTOM_X' } }] }, /regular expression|regex/i],
      [{ priority: 10_000, actions: [{ op: 'add-trait', args: { name: 'CUSTOM_X' } }] }, /priority/],
      [{ uuid: 'not-a-uuid', actions: [{ op: 'add-trait', args: { name: 'CUSTOM_X' } }] }, /uuid/],
      [[1, 2], /JSON object/],
    ];
    for (const [payload, message] of cases) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/inspection_rules', headers: V, payload: payload as object });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(faultString(res.body)).toMatch(message);
    }
    const valid = (await t.app.inject({ method: 'POST', url: '/v1/inspection_rules', headers: V, payload: rule })).json<RuleView>();
    const dup = await t.app.inject({ method: 'POST', url: '/v1/inspection_rules', headers: V, payload: { ...rule, uuid: valid.uuid } });
    expect(dup.statusCode).toBe(409);
    const badPatch = await t.app.inject({ method: 'PATCH', url: `/v1/inspection_rules/${valid.uuid}`, headers: V, payload: [{ op: 'replace', path: '/actions/0/op', value: 'nope' }] });
    expect(badPatch.statusCode).toBe(400);
    expect((await t.store.inspectionRules.get(valid.uuid)).actions).toEqual(rule.actions);
    expect((await t.store.inspectionRules.all()).length).toBe(before + 1);
  });

  it('does not exist below 1.96: 404 for GET, 405 for the other methods', async () => {
    expect((await t.app.inject({ url: '/v1/inspection_rules', headers: version('1.95') })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/v1/inspection_rules', headers: version('1.95'), payload: rule })).statusCode).toBe(405);
    const v1 = (await t.app.inject({ url: '/v1', headers: V })).json<Record<string, unknown>>();
    expect(v1).toHaveProperty('inspection_rules');
    expect((await t.app.inject({ url: '/v1', headers: version('1.95') })).json()).not.toHaveProperty('inspection_rules');
  });
});
