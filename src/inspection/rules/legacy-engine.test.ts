/** Legacy (ironic-inspector `/v1/rules`) rules: every operator and action, with the upstream examples. */
import { describe, expect, it } from 'vitest';
import { applyLegacyRules } from './legacy-engine.js';
import type { LegacyRuleInput } from './legacy-rules.js';
import { makeContext } from './rules-context.test-support.js';

type Cond = Record<string, unknown> & { op: string; field: string };
const tagRule = (conditions: Cond[]): LegacyRuleInput => ({ description: 'probe', conditions, actions: [{ action: 'add-trait', name: 'CUSTOM_HIT' }] });
/** True when the single condition holds on the default context. */
const holds = (cond: Cond): boolean => applyLegacyRules([tagRule([cond])], makeContext()).applied.length === 1;

describe('legacy conditions', () => {
  it('eq / ne coerce the field to the type of a numeric value', () => {
    expect(holds({ op: 'eq', field: 'inventory.cpu.count', value: 8 })).toBe(true);
    expect(holds({ op: 'eq', field: 'inventory.cpu.frequency', value: 2400 })).toBe(true); // "2400" -> int
    expect(holds({ op: 'eq', field: 'inventory.cpu.frequency', value: '2400' })).toBe(true);
    expect(holds({ op: 'eq', field: 'inventory.cpu.architecture', value: 'aarch64' })).toBe(false);
    expect(holds({ op: 'ne', field: 'inventory.cpu.architecture', value: 'aarch64' })).toBe(true);
    expect(holds({ op: 'ne', field: 'inventory.cpu.count', value: 8 })).toBe(false);
  });

  it('lt / gt / le / ge compare numbers', () => {
    expect(holds({ op: 'gt', field: 'inventory.memory.physical_mb', value: 8192 })).toBe(true);
    expect(holds({ op: 'lt', field: 'inventory.memory.physical_mb', value: 8192 })).toBe(false);
    expect(holds({ op: 'ge', field: 'inventory.cpu.count', value: 8 })).toBe(true);
    expect(holds({ op: 'le', field: 'inventory.cpu.count', value: 7 })).toBe(false);
    expect(holds({ op: 'lt', field: 'memory_mb', value: 1 })).toBe(false); // missing field: not applied
  });

  it('in-net checks the address against a network', () => {
    expect(holds({ op: 'in-net', field: 'inventory.bmc_address', value: '10.0.0.0/24' })).toBe(true);
    expect(holds({ op: 'in-net', field: 'inventory.bmc_address', value: '10.1.0.0/16' })).toBe(false);
  });

  it('matches requires a full match, contains a match anywhere', () => {
    expect(holds({ op: 'matches', field: 'inventory.system_vendor.product_name', value: 'PowerEdge R6\\d0' })).toBe(true);
    expect(holds({ op: 'matches', field: 'inventory.system_vendor.product_name', value: 'PowerEdge' })).toBe(false);
    expect(holds({ op: 'contains', field: 'inventory.system_vendor.product_name', value: 'Edge' })).toBe(true);
    expect(holds({ op: 'contains', field: 'inventory.system_vendor.manufacturer', value: '(?i)^dell' })).toBe(true);
  });

  it('is-empty holds for empty values and for missing fields', () => {
    expect(holds({ op: 'is-empty', field: 'node://driver_info.ipmi_password' })).toBe(true);
    expect(holds({ op: 'is-empty', field: 'node://extra' })).toBe(true);
    expect(holds({ op: 'is-empty', field: 'inventory.interfaces[1].ipv4_address' })).toBe(true);
    expect(holds({ op: 'is-empty', field: 'node://driver_info.ipmi_address' })).toBe(false);
  });

  it('invert negates the result', () => {
    expect(holds({ op: 'eq', field: 'inventory.cpu.count', value: 8, invert: true })).toBe(false);
    expect(holds({ op: 'is-empty', field: 'node://driver_info.ipmi_address', invert: true })).toBe(true);
  });

  it('multiple: any (default), all, first over a list field', () => {
    const f = 'inventory.interfaces[*].ipv4_address';
    expect(holds({ op: 'in-net', field: f, value: '192.168.122.0/24' })).toBe(true);
    expect(holds({ op: 'in-net', field: f, value: '192.168.122.0/24', multiple: 'any' })).toBe(true);
    expect(holds({ op: 'in-net', field: f, value: '192.168.122.0/24', multiple: 'all' })).toBe(false);
    expect(holds({ op: 'in-net', field: f, value: '192.168.122.0/24', multiple: 'first' })).toBe(true);
    expect(holds({ op: 'is-empty', field: f, multiple: 'first' })).toBe(false);
    expect(holds({ op: 'is-empty', field: f, multiple: 'any' })).toBe(true);
    expect(holds({ op: 'contains', field: 'inventory.disks[*].model', value: 'SSD|HDD', multiple: 'all' })).toBe(true);
  });

  it('reads the node with node:// and the data with data:// or no scheme', () => {
    expect(holds({ op: 'eq', field: 'node://driver', value: 'ipmi' })).toBe(true);
    expect(holds({ op: 'eq', field: 'data://auto_discovered', value: true })).toBe(true);
    expect(holds({ op: 'eq', field: '$.root_disk.name', value: '/dev/sda' })).toBe(true);
  });

  it('all conditions must hold', () => {
    const r = applyLegacyRules(
      [tagRule([
        { op: 'eq', field: 'inventory.cpu.architecture', value: 'x86_64' },
        { op: 'gt', field: 'inventory.cpu.count', value: 16 },
      ])],
      makeContext(),
    );
    expect(r.applied).toEqual([]);
    expect(r.nodeChanges).toEqual({});
  });
});

describe('legacy actions', () => {
  it('runs the upstream discovery example: set driver and driver_info when credentials are empty', () => {
    const rules: LegacyRuleInput[] = [
      {
        description: 'Set IPMI driver_info if no credentials',
        actions: [
          { action: 'set-attribute', path: 'driver', value: 'ipmi' },
          { action: 'set-attribute', path: 'driver_info/ipmi_username', value: 'username' },
          { action: 'set-attribute', path: 'driver_info/ipmi_password', value: 'password' },
        ],
        conditions: [
          { op: 'is-empty', field: 'node://driver_info.ipmi_password' },
          { op: 'is-empty', field: 'node://driver_info.ipmi_username' },
        ],
      },
      {
        description: 'Enroll auto-discovered nodes with ipmi hardware type',
        actions: [{ action: 'set-attribute', path: '/driver_info/ipmi_address', value: '{data[inventory][bmc_address]}' }],
        conditions: [{ op: 'eq', field: 'data://auto_discovered', value: true }],
      },
    ];
    const ctx = makeContext({ node: { driver: 'fake-hardware', driver_info: {} } });
    const before = structuredClone(ctx);
    const r = applyLegacyRules(rules, ctx);
    expect(r.failure).toBeNull();
    expect(r.applied).toEqual(['Set IPMI driver_info if no credentials', 'Enroll auto-discovered nodes with ipmi hardware type']);
    expect(r.nodeChanges).toEqual({
      driver: 'ipmi',
      driver_info: { ipmi_username: 'username', ipmi_password: 'password', ipmi_address: '10.0.0.7' },
    });
    expect(r.resetInterfaces).toBe(true);
    expect(ctx).toEqual(before); // the input is never mutated
  });

  it('formats dict values recursively (the root_device example)', () => {
    const r = applyLegacyRules(
      [{ actions: [{ action: 'set-attribute', path: '/properties/root_device', value: { serial: '{data[root_disk][name]}' } }] }],
      makeContext(),
    );
    expect(r.nodeChanges.properties).toEqual({ capabilities: 'boot_mode:bios', root_device: { serial: '/dev/sda' } });
  });

  it('set-capability replaces in the "k:v" string; extend-attribute appends, unique skips duplicates', () => {
    const r = applyLegacyRules(
      [
        {
          actions: [
            { action: 'set-capability', name: 'boot_mode', value: '{data[inventory][boot][current_boot_mode]}' },
            { action: 'set-capability', name: 'cpu_vt', value: 'true' },
            { action: 'extend-attribute', path: '/extra/tags', value: 'a' },
            { action: 'extend-attribute', path: '/extra/tags', value: 'a', unique: true },
            { action: 'extend-attribute', path: '/extra/tags', value: 'b', unique: true },
          ],
        },
      ],
      makeContext(),
    );
    expect(r.failure).toBeNull();
    expect((r.nodeChanges.properties as Record<string, unknown>).capabilities).toBe('boot_mode:uefi,cpu_vt:true');
    expect(r.nodeChanges.extra).toEqual({ tags: ['a', 'b'] });
  });

  it('add-trait and remove-trait change the trait list', () => {
    const r = applyLegacyRules(
      [{ actions: [{ action: 'add-trait', name: 'CUSTOM_GPU' }, { action: 'remove-trait', name: 'CUSTOM_OLD' }, { action: 'remove-trait', name: 'CUSTOM_NONE' }] }],
      makeContext(),
    );
    expect(r.failure).toBeNull();
    expect(r.nodeChanges.traits).toEqual(['CUSTOM_GPU']);
  });

  it('fail stops processing with the message; earlier changes are still reported', () => {
    const r = applyLegacyRules(
      [
        { description: 'first', actions: [{ action: 'add-trait', name: 'CUSTOM_A' }] },
        { description: 'too small', conditions: [{ op: 'lt', field: 'inventory.memory.physical_mb', value: 32768 }], actions: [{ action: 'fail', message: 'not enough memory' }] },
        { description: 'never', actions: [{ action: 'add-trait', name: 'CUSTOM_B' }] },
      ],
      makeContext(),
    );
    expect(r.failure).toEqual({ rule: 'too small', message: 'not enough memory', cause: 'fail-action' });
    expect(r.nodeChanges.traits).toEqual(['CUSTOM_OLD', 'CUSTOM_A']);
  });

  it('an unknown formatting key is an error naming the value', () => {
    const r = applyLegacyRules([{ uuid: 'r1', actions: [{ action: 'set-attribute', path: '/extra/x', value: '{data[nope]}' }] }], makeContext());
    expect(r.failure?.cause).toBe('error');
    expect(r.failure?.rule).toBe('r1');
    expect(r.failure?.message).toMatch(/invalid formatting variable key.*nope/);
  });

  it('checks every rule against the data as it arrived, then runs actions in order', () => {
    const r = applyLegacyRules(
      [
        { description: 'sets', actions: [{ action: 'set-attribute', path: '/extra/flag', value: 'x' }] },
        // Would match only if it saw the first rule's change.
        { description: 'reads', conditions: [{ op: 'eq', field: 'node://extra.flag', value: 'x' }], actions: [{ action: 'add-trait', name: 'CUSTOM_SEEN' }] },
      ],
      makeContext(),
    );
    expect(r.applied).toEqual(['sets']);
  });

  it('a scoped rule applies only to nodes with the same properties.inspection_scope', () => {
    const rule: LegacyRuleInput = { scope: 'rack-1', actions: [{ action: 'add-trait', name: 'CUSTOM_RACK1' }] };
    expect(applyLegacyRules([rule], makeContext()).applied).toEqual([]);
    expect(applyLegacyRules([rule], makeContext({ node: { properties: { inspection_scope: 'rack-1' } } })).applied).toHaveLength(1);
  });

  it('a comparison the data cannot support is an error, not a silent mismatch', () => {
    const r = applyLegacyRules([tagRule([{ op: 'gt', field: 'inventory.cpu.architecture', value: 4 }])], makeContext());
    expect(r.failure?.cause).toBe('error');
    expect(r.failure?.message).toMatch(/invalid literal for int\(\)/);
  });

  it('set-attribute on a field the node does not have is an error', () => {
    const r = applyLegacyRules([{ actions: [{ action: 'set-attribute', path: '/no_such_field', value: 1 }] }], makeContext());
    expect(r.failure?.message).toMatch(/node has no field "no_such_field"/);
  });

  it('an invalid stored rule fails the run with its problems', () => {
    const r = applyLegacyRules([{ actions: [{ action: 'explode' }] }], makeContext());
    expect(r.failure?.message).toMatch(/actions\[0\]\.action: unknown action "explode"/);
  });
});
