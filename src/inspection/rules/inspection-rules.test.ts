/** Inspection rule validation: what `/v1/inspection_rules` runs on create, and on built-in rules. */
import { describe, expect, it } from 'vitest';
import { IngotError } from '../../shared/errors.js';
import { checkInspectionRule, validateInspectionRule } from './inspection-rules.js';

const problemsOf = (rule: unknown, builtIn = false): string[] => checkInspectionRule(rule, { builtIn }).problems;

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
