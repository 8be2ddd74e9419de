/** Rule validation for both formats (what the CRUD APIs run on create) and the built-in rules loader. */
import { describe, expect, it } from 'vitest';
import { IngotError } from '../../src/shared/errors.js';
import {
  checkInspectionRule,
  checkLegacyRule,
  parseBuiltinInspectionRules,
  syntheticRuleUuid,
  validateInspectionRule,
  validateLegacyRule,
} from '../../src/inspection/rules/index.js';

const problemsOfLegacy = (rule: unknown): string[] => checkLegacyRule(rule).problems;
const problemsOf = (rule: unknown, builtIn = false): string[] => checkInspectionRule(rule, { builtIn }).problems;

describe('legacy rule validation', () => {
  it('accepts the upstream examples and fills defaults', () => {
    const rule = validateLegacyRule({
      description: 'x',
      conditions: [{ op: 'is-empty', field: 'node://driver_info.ipmi_password' }, { op: 'in-net', field: 'inventory.bmc_address', value: '10.0.0.0/8', multiple: 'all', invert: true }],
      actions: [{ action: 'set-attribute', path: 'driver', value: 'ipmi' }, { action: 'set-attribute', path: '/extra/x', value: null }],
    });
    expect(rule.conditions[0]).toMatchObject({ scheme: 'node', multiple: 'any', invert: false });
    expect(rule.conditions[1]).toMatchObject({ scheme: 'data', multiple: 'all', invert: true, params: { value: '10.0.0.0/8' } });
  });

  it('names the field of each problem', () => {
    expect(problemsOfLegacy({ conditions: [{ op: 'bigger', field: 'a', value: 1 }], actions: [{ action: 'fail', message: 'm' }] })).toEqual([
      'conditions[0].op: unknown operator "bigger"; supported: eq, lt, gt, le, ge, ne, in-net, matches, contains, is-empty',
    ]);
    expect(problemsOfLegacy({ conditions: [{ op: 'eq', field: 'a' }], actions: [{ action: 'fail' }] })).toEqual([
      'conditions[0]: missing required parameter(s) for operator eq: value',
      'actions[0]: missing required parameter(s) for action fail: message',
    ]);
    expect(problemsOfLegacy({ conditions: [{ op: 'matches', field: 'a', value: '(' }], actions: [{ action: 'add-trait', name: 'T', bogus: 1 }] })).toEqual([
      expect.stringMatching(/^conditions\[0\]\.value: invalid regular expression "\(":/),
      'actions[0]: unexpected parameter(s) for action add-trait: bogus',
    ]);
    expect(problemsOfLegacy({ conditions: [{ op: 'in-net', field: 'a', value: '10.0.0.0/40' }], actions: [{ action: 'fail', message: 'm' }] })).toEqual([
      expect.stringMatching(/^conditions\[0\]\.value: invalid network: .*prefix length/),
    ]);
    expect(problemsOfLegacy({ conditions: [{ op: 'eq', field: 'inventory.[', value: 1 }], actions: [{ action: 'fail', message: 'm' }] })).toEqual([
      expect.stringMatching(/^conditions\[0\]\.field: cannot parse JSON path "inventory\.\["/),
    ]);
    expect(problemsOfLegacy({ conditions: [{ op: 'eq', field: 'ftp://x', value: 1 }], actions: [{ action: 'fail', message: 'm' }] })).toEqual([
      'conditions[0].field: unsupported scheme "ftp://"; use data:// or node://',
    ]);
  });

  it('refuses schema errors: no actions, bad multiple, unknown top-level field', () => {
    expect(problemsOfLegacy({ actions: [] })).toEqual(['actions: must not have fewer than 1 items']);
    expect(problemsOfLegacy({ conditions: [{ op: 'eq', field: 'a', value: 1, multiple: 'most' }], actions: [{ action: 'fail', message: 'm' }] })).toEqual([
      'conditions[0].multiple: must be equal to constant',
    ]);
    expect(problemsOfLegacy({ actions: [{ action: 'fail', message: 'm' }], weight: 3 })).toEqual(['rule: must not have additional properties (weight)']);
  });

  it('validateLegacyRule throws InvalidParameterValue with every problem', () => {
    try {
      validateLegacyRule({ conditions: [{ op: 'nope', field: 'a' }], actions: [{ action: 'nope' }] });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(IngotError);
      expect((err as IngotError).code).toBe('InvalidParameterValue');
      expect((err as IngotError).message).toMatch(/conditions\[0\]\.op: unknown operator "nope".*; actions\[0\]\.action: unknown action "nope"/);
    }
  });
});

describe('inspection rule validation', () => {
  it('accepts dict and list args, negation, loops, and fills defaults', () => {
    const rule = validateInspectionRule({
      conditions: [{ op: '!eq', args: [['{node.driver}', 'idrac']] }, { op: 'contains', args: { value: 'x', regex: '(?i)dell' }, loop: [1], multiple: 'all' }],
      actions: [{ op: 'log', args: { msg: 'hi' } }],
    });
    expect(rule).toMatchObject({ priority: 0, sensitive: false, phase: 'main', uuid: null });
    expect(rule.conditions[0]).toMatchObject({ op: 'eq', invert: true, args: { values: ['{node.driver}', 'idrac'] } });
    // The pitfall the upstream docs warn about: spreading the list maps 'idrac' onto force_strings.
    expect(problemsOf({ conditions: [{ op: 'eq', args: ['{node.driver}', 'idrac'] }], actions: [{ op: 'log', args: ['m'] }] })).toEqual([
      'conditions[0].args.values: must be a list of values to compare (operator eq)',
    ]);
    expect(rule.conditions[1]).toMatchObject({ op: 'contains', multiple: 'all', loop: [1] });
  });

  it('names the field of each problem: unknown op, missing/unexpected args, bad regex, bad CIDR, bad path', () => {
    const act = [{ op: 'log', args: { msg: 'm' } }];
    expect(problemsOf({ conditions: [{ op: 'bigger', args: {} }], actions: act })).toEqual([
      'conditions[0].op: unknown operator "bigger"; supported: eq, lt, gt, is-empty, in-net, matches, contains, one-of, is-none, is-true, is-false (prefix "!" to negate)',
    ]);
    expect(problemsOf({ conditions: [{ op: '!!eq', args: { values: [] } }], actions: act })[0]).toMatch(/^conditions\[0\]\.op: more than one "!"/);
    expect(problemsOf({ conditions: [{ op: 'in-net', args: { address: '1.2.3.4' } }], actions: act })).toEqual([
      'conditions[0].args: missing required argument(s): subnet (operator in-net)',
    ]);
    expect(problemsOf({ conditions: [{ op: 'in-net', args: ['1.2.3.4'] }], actions: act })).toEqual([
      'conditions[0].args: not enough arguments; missing: subnet (operator in-net)',
    ]);
    expect(problemsOf({ conditions: [{ op: 'in-net', args: { address: '1.2.3.4', subnet: '1.2.3.0/99' } }], actions: act })[0]).toMatch(
      /^conditions\[0\]\.args\.subnet: invalid network: .*prefix length/,
    );
    expect(problemsOf({ conditions: [{ op: 'matches', args: { value: 'x', regex: '[a-' } }], actions: act })[0]).toMatch(
      /^conditions\[0\]\.args\.regex: invalid regular expression "\[a-"/,
    );
    expect(problemsOf({ conditions: [{ op: 'eq', args: { values: 'x' } }], actions: act })).toEqual([
      'conditions[0].args.values: must be a list of values to compare (operator eq)',
    ]);
    expect(problemsOf({ actions: [{ op: 'set-attribute', args: { path: '/no_such/x', value: 1 } }] })).toEqual([
      'actions[0].args.path: "no_such" is not a node field',
    ]);
    expect(problemsOf({ actions: [{ op: 'set-port-attribute', args: { port_id: 'p', path: 'bogus', value: 1 } }] })).toEqual([
      'actions[0].args.path: "bogus" is not a port field',
    ]);
    expect(problemsOf({ actions: [{ op: 'add-trait', args: { name: 'T', extra: 1 } }] })).toEqual([
      'actions[0].args: unexpected argument(s): extra (action add-trait)',
    ]);
    expect(problemsOf({ actions: [{ op: 'log', args: { msg: 'm', level: 'loud' } }] })).toEqual([
      'actions[0].args.level: invalid log level "loud"; choose from debug, info, warning, error, critical',
    ]);
    expect(problemsOf({ actions: [{ op: 'explode', args: {} }] })[0]).toMatch(/^actions\[0\]\.op: unknown action "explode"; supported: fail, log, set-attribute/);
    expect(problemsOf({ actions: [{ op: 'api-call', args: { url: 'http://x' } }] })).toEqual([
      'actions[0].op: Ingot does not run "api-call" actions (inspection rules make no HTTP calls); use a log action or an external hook instead',
    ]);
    expect(problemsOf({ actions: [{ op: 'log', args: 'msg' }] })).toEqual(['actions[0].args: must be array or object']);
    expect(problemsOf({ description: 5, actions: [{ op: 'log', args: {} }] })).toEqual(['description: must be string or null']);
  });

  it('does not check templated values it cannot know yet', () => {
    expect(problemsOf({ conditions: [{ op: 'in-net', args: { address: '{inventory[bmc_address]}', subnet: '{plugin_data[net]}' } }], actions: [{ op: 'set-attribute', args: { path: '{item}', value: 1 }, loop: ['extra.a'] }] })).toEqual([]);
  });

  it('checks rule fields: priority range, phase, uuid, description length, no actions', () => {
    const act = [{ op: 'log', args: { msg: 'm' } }];
    expect(problemsOf({ priority: 10000, actions: act })).toEqual(['priority: must be between 0 and 9999 for user-defined rules (got 10000)']);
    expect(problemsOf({ priority: -5, actions: act }, true)).toEqual([]);
    expect(problemsOf({ phase: 'early', actions: act })).toEqual(['phase: invalid phase "early"; valid phases are: main']);
    expect(problemsOf({ uuid: 'not-a-uuid', actions: act })).toEqual(['uuid: "not-a-uuid" is not a UUID']);
    expect(problemsOf({ uuid: 'not-a-uuid', actions: act }, true)).toEqual([]);
    expect(problemsOf({ description: 'x'.repeat(256), actions: act })).toEqual(['description: must not have more than 255 characters']);
    expect(problemsOf({ actions: [] })).toEqual(['actions: must not have fewer than 1 items']);
    expect(problemsOf({ actions: act, scope: 'x' })).toEqual(['rule: must not have additional properties (scope)']);
  });

  it('validateInspectionRule throws InvalidParameterValue', () => {
    expect(() => validateInspectionRule({ actions: [{ op: 'nope', args: {} }] })).toThrow(IngotError);
    expect(() => validateInspectionRule({ actions: [{ op: 'nope', args: {} }] })).toThrow(/Invalid inspection rule: actions\[0\]\.op/);
  });
});

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
