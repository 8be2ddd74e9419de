/** Legacy (ironic-inspector) rule validation: what `/v1/rules` of the legacy inspector API runs on create. */
import { describe, expect, it } from 'vitest';
import { IngotError } from '../../shared/errors.js';
import { checkLegacyRule, validateLegacyRule } from './legacy-rules.js';

const problemsOfLegacy = (rule: unknown): string[] => checkLegacyRule(rule).problems;

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
