/**
 * No rule path reaches an object prototype: `__proto__`, `constructor` and `prototype` in an action path
 * fail the rule and change nothing, in both rule formats; inherited names (`toString`, `hasOwnProperty`)
 * are ordinary keys to read and write.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { applyInspectionRules } from './inspection-engine.js';
import { applyLegacyRules } from './legacy-engine.js';
import { makeContext } from './rules-context.test-support.js';
import type { JsonObject } from '../../domain/node.js';

const PORT = '0c9d1a84-5b1f-4b38-9f27-111111111111';
const polluted = (): unknown => (({}) as Record<string, unknown>).agent_secret_token;

afterEach(() => {
  // Should a case fail, leave no pollution behind for the next one.
  delete (Object.prototype as Record<string, unknown>).agent_secret_token;
});

describe('inspection rules and prototype keys', () => {
  const attempts: [string, JsonObject][] = [
    ['set-attribute', { path: '/extra/__proto__/agent_secret_token', value: 'forged' }],
    ['set-attribute', { path: '/driver_internal_info/constructor/prototype/agent_secret_token', value: 'forged' }],
    ['set-attribute', { path: '/__proto__/agent_secret_token', value: 'forged' }],
    ['extend-attribute', { path: '/extra/__proto__/agent_secret_token', value: 'forged' }],
    ['del-attribute', { path: '/extra/__proto__/toString' }],
    ['set-plugin-data', { path: '__proto__.agent_secret_token', value: 'forged' }],
    ['set-plugin-data', { path: 'constructor.prototype.agent_secret_token', value: 'forged' }],
    ['extend-plugin-data', { path: '__proto__.agent_secret_token', value: 'forged' }],
    ['set-port-attribute', { port_id: PORT, path: '/extra/__proto__/agent_secret_token', value: 'forged' }],
  ];
  for (const [op, args] of attempts) {
    it(`${op} ${String(args.path)} fails the rule and changes nothing`, () => {
      const ctx = makeContext();
      const r = applyInspectionRules([{ description: 'hostile', actions: [{ op, args }] }], ctx);
      expect(polluted()).toBeUndefined();
      expect(r.failure?.message).toMatch(/"(__proto__|constructor|prototype)" (cannot be used as a key|is not a node field)/);
      expect(r.nodeChanges).toEqual({});
      expect(r.portChanges).toEqual([]);
      expect(r.pluginDataChanged).toBe(false);
    });
  }

  it('a path templated in a loop that turns into __proto__ is refused the same way', () => {
    const action = { op: 'set-attribute', args: { path: '/extra/{item}/agent_secret_token', value: 'x' }, loop: ['__proto__'] };
    const r = applyInspectionRules([{ actions: [action] }], makeContext());
    expect(polluted()).toBeUndefined();
    expect(r.failure?.message).toMatch(/"__proto__" cannot be used as a key/);
  });

  it('inherited names are ordinary keys: written as own data, read as missing', () => {
    const r = applyInspectionRules(
      [{
        actions: [
          { op: 'set-attribute', args: { path: '/extra/toString/hasOwnProperty', value: 1 } },
          { op: 'set-plugin-data', args: { path: 'valueOf.x', value: 2 } },
        ],
      }],
      makeContext(),
    );
    expect(r.failure).toBeNull();
    expect(r.nodeChanges).toEqual({ extra: { toString: { hasOwnProperty: 1 } } });
    expect(r.pluginData.valueOf).toEqual({ x: 2 });
    const read = applyInspectionRules(
      [{ conditions: [{ op: 'is-none', args: { value: '{node.extra}' } }], actions: [{ op: 'add-trait', args: { name: 'CUSTOM_X' } }] }],
      makeContext(),
    );
    expect(read.failure).toBeNull();
  });

  it('a condition templating {node.constructor} or {plugin_data[__proto__]} reads nothing of the prototype', () => {
    const r = applyInspectionRules(
      [{ actions: [{ op: 'set-attribute', args: { path: '/extra/seen', value: '{plugin_data[__proto__]}|{node.constructor}' } }] }],
      makeContext(),
    );
    expect(r.nodeChanges).toEqual({ extra: { seen: '{plugin_data[__proto__]}|{node.constructor}' } });
  });
});

describe('legacy rules and prototype keys', () => {
  for (const path of ['extra/__proto__/agent_secret_token', '/driver_info/constructor/prototype/agent_secret_token', '__proto__']) {
    it(`set-attribute ${path} fails the rule and changes nothing`, () => {
      const r = applyLegacyRules([{ description: 'hostile', conditions: [], actions: [{ action: 'set-attribute', path, value: 'forged' }] }], makeContext());
      expect(polluted()).toBeUndefined();
      expect(r.failure?.message).toMatch(/cannot be used as a key/);
      expect(r.nodeChanges).toEqual({});
    });
  }
});
