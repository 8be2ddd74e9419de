/** The built-in rules loader (`[inspector] built_in_rules`): JSON or YAML, defaults, synthetic UUIDs, the problems it names. */
import { describe, expect, it } from 'vitest';
import type { IngotError } from '../../shared/errors.js';
import { parseBuiltinInspectionRules, syntheticRuleUuid } from './builtin-rules.js';

describe('built-in rules loader', () => {
  const yamlText = `
- uuid: "rule-dell-bmc-setup"
  description: "Configure iDRAC driver for auto-discovered Dell servers"
  priority: 100
  sensitive: true
  phase: main
  conditions:
    - op: contains
      args:
        value: "{inventory[system_vendor][manufacturer]}"
        regex: "(?i)dell"
  actions:
    - op: set-attribute
      args:
        path: "/driver"
        value: "idrac"
- description: second
  priority: -1
  actions:
    - op: add-trait
      args: [CUSTOM_X]
`;

  it('parses JSON, fills defaults and numbers synthetic uuids', () => {
    const rules = parseBuiltinInspectionRules(JSON.stringify([{ actions: [{ op: 'log', args: { msg: 'a' } }] }, { uuid: 'mine', actions: [{ op: 'log', args: { msg: 'b' } }] }, { actions: [{ op: 'log', args: { msg: 'c' } }] }]));
    expect(rules.map((r) => r.uuid)).toEqual([syntheticRuleUuid(0), 'mine', syntheticRuleUuid(1)]);
    expect(syntheticRuleUuid(1)).toBe('00000000-0000-0000-0000-000000000001');
    expect(rules[0]).toEqual({ uuid: syntheticRuleUuid(0), priority: 0, description: null, sensitive: false, phase: 'main', conditions: [], actions: [{ op: 'log', args: { msg: 'a' } }] });
  });

  it('parses YAML with a YAML parser passed in (js-yaml from node_modules), and refuses YAML without one', async () => {
    const moduleName = 'js-yaml';
    const yaml = (await import(moduleName)) as { load: (text: string) => unknown };
    const rules = parseBuiltinInspectionRules(yamlText, { parseYaml: (t) => yaml.load(t), source: 'rules.yaml' });
    expect(rules.map((r) => [r.uuid, r.priority])).toEqual([['rule-dell-bmc-setup', 100], [syntheticRuleUuid(0), -1]]);
    expect(() => parseBuiltinInspectionRules(yamlText)).toThrow(/expected a JSON list of rules \(YAML needs a YAML parser/);
  });

  it('names the rule and field of a problem, with ConfigInvalid', () => {
    const bad = JSON.stringify([{ actions: [{ op: 'log', args: { msg: 'ok' } }] }, { actions: [{ op: 'fail', args: {} }] }]);
    try {
      parseBuiltinInspectionRules(bad, { source: '/etc/ingot/rules.json' });
      expect.unreachable();
    } catch (err) {
      expect((err as IngotError).code).toBe('ConfigInvalid');
      expect((err as IngotError).message).toBe(
        '/etc/ingot/rules.json: rule 1 (00000000-0000-0000-0000-000000000001): actions[0].args: missing required argument(s): msg (action fail)',
      );
    }
    expect(() => parseBuiltinInspectionRules('{"not": "a list"}')).toThrow(/should contain a list of rules/);
    expect(() => parseBuiltinInspectionRules('[{"actions": [], "x": 1}]')).toThrow(/unknown field\(s\): x/);
    expect(() => parseBuiltinInspectionRules('[oops')).toThrow(/invalid JSON/);
  });
});
