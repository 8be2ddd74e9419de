/** Inspection rules (Ironic `inspection_rules`, API 1.96): every operator and action, with the upstream examples. */
import { describe, expect, it } from 'vitest';
import { applyInspectionRules } from './inspection-engine.js';
import type { InspectionRuleInput } from './inspection-rules.js';
import { makeContext } from './rules-context.test-support.js';

type Op = NonNullable<InspectionRuleInput['conditions']>[number];
const probe = (conditions: Op[]): InspectionRuleInput => ({ description: 'probe', conditions, actions: [{ op: 'add-trait', args: { name: 'CUSTOM_HIT' } }] });
const holds = (...conditions: Op[]): boolean => {
  const r = applyInspectionRules([probe(conditions)], makeContext());
  if (r.failure) throw new Error(r.failure.message);
  return r.applied.length === 1;
};
const run = (actions: Op[], over: Parameters<typeof makeContext>[0] = {}) =>
  applyInspectionRules([{ uuid: 'a9b0a1d6-6c58-4a55-8e6b-5a3f0c1f0a01', actions }], makeContext(over));

describe('inspection rule conditions', () => {
  it('eq / lt / gt compare a list of values pairwise (strings stay strings unless force_strings)', () => {
    expect(holds({ op: 'eq', args: { values: ['{node.driver}', 'ipmi'] } })).toBe(true);
    expect(holds({ op: 'eq', args: { values: ['{inventory[cpu][count]}', 8] } })).toBe(false);
    expect(holds({ op: 'eq', args: { values: ['{inventory[cpu][count]}', 8], force_strings: true } })).toBe(true);
    expect(holds({ op: 'lt', args: { values: [1, 2, 3] } })).toBe(true);
    expect(holds({ op: 'lt', args: { values: [1, 3, 2] } })).toBe(false);
    expect(holds({ op: 'gt', args: { values: [3, 2, 1] } })).toBe(true);
    expect(holds({ op: 'gt', args: [[1, 2]] })).toBe(false); // list-form args
  });

  it('is-empty, is-none, is-true, is-false on templated values', () => {
    expect(holds({ op: 'is-empty', args: { value: '{inventory[interfaces][1][ipv4_address]}' } })).toBe(true);
    expect(holds({ op: 'is-empty', args: { value: '{node.extra}' } })).toBe(true);
    expect(holds({ op: 'is-empty', args: { value: '{inventory[bmc_address]}' } })).toBe(false);
    expect(holds({ op: 'is-none', args: { value: '{inventory[interfaces][1][ipv4_address]}' } })).toBe(true);
    expect(holds({ op: 'is-none', args: { value: null } })).toBe(true);
    expect(holds({ op: 'is-true', args: { value: '{plugin_data[auto_discovered]}' } })).toBe(true);
    expect(holds({ op: 'is-true', args: { value: 'yes' } })).toBe(true);
    expect(holds({ op: 'is-true', args: { value: 0 } })).toBe(false);
    expect(holds({ op: 'is-false', args: { value: '{node.maintenance}' } })).toBe(true);
    expect(holds({ op: 'is-false', args: { value: null } })).toBe(true);
    expect(holds({ op: 'is-false', args: { value: 'maybe' } })).toBe(false);
  });

  it('in-net, matches, contains, one-of', () => {
    expect(holds({ op: 'in-net', args: { address: '{inventory[bmc_address]}', subnet: '10.0.0.0/24' } })).toBe(true);
    expect(holds({ op: 'in-net', args: ['{inventory[bmc_address]}', '10.9.0.0/16'] })).toBe(false);
    expect(holds({ op: 'in-net', args: { address: '{inventory[interfaces][1][ipv4_address]}', subnet: '0.0.0.0/0' } })).toBe(false);
    expect(holds({ op: 'contains', args: { value: '{inventory[system_vendor][manufacturer]}', regex: '(?i)dell' } })).toBe(true);
    expect(holds({ op: 'matches', args: { value: '{inventory[system_vendor][product_name]}', regex: 'PowerEdge R\\d+' } })).toBe(true);
    expect(holds({ op: 'matches', args: { value: '{inventory[system_vendor][product_name]}', regex: 'PowerEdge' } })).toBe(false);
    expect(holds({ op: 'one-of', args: { value: '{inventory[cpu][architecture]}', values: ['x86_64', 'aarch64'] } })).toBe(true);
    expect(holds({ op: 'one-of', args: { value: '{inventory[cpu][architecture]}', values: ['ppc64le'] } })).toBe(false);
  });

  it('"!" negates any operator, with or without a space', () => {
    expect(holds({ op: '!eq', args: { values: ['{node.driver}', 'ipmi'] } })).toBe(false);
    expect(holds({ op: '! contains', args: { value: '{inventory[system_vendor][manufacturer]}', regex: 'HPE' } })).toBe(true);
    expect(holds({ op: '!is-empty', args: { value: '{inventory[bmc_address]}' } })).toBe(true);
  });

  it('loops over items with multiple any / all / first / last (the upstream product-model example)', () => {
    const models = ['HPE ProLiant DL380 Gen10', 'PowerEdge R640', 'Cisco UCS'];
    const cond = (multiple: Op['multiple'], loop = models): Op => ({ op: 'eq', args: { values: ['{inventory[system_vendor][product_name]}', '{item}'] }, loop, multiple });
    expect(holds(cond('any'))).toBe(true);
    expect(holds(cond('all'))).toBe(false);
    expect(holds(cond('first'))).toBe(false);
    expect(holds(cond('first', ['PowerEdge R640', 'x']))).toBe(true);
    expect(holds(cond('last'))).toBe(false);
    expect(holds(cond('last', ['x', 'PowerEdge R640']))).toBe(true);
    // Inside a loop comparisons are on strings: 8 from the inventory equals the item "8".
    expect(holds({ op: 'eq', args: { values: ['{inventory[cpu][count]}', '{item}'] }, loop: [4, 8] })).toBe(true);
  });

  it('all conditions must hold; no conditions means always', () => {
    expect(holds({ op: 'is-true', args: { value: true } }, { op: 'is-true', args: { value: false } })).toBe(false);
    expect(holds()).toBe(true);
  });
});

describe('inspection rule actions', () => {
  it('runs the upstream full example (Dell iDRAC discovery)', () => {
    const rule: InspectionRuleInput = {
      uuid: 'rule-dell-bmc-setup',
      description: 'Configure iDRAC driver for auto-discovered Dell servers',
      priority: 100,
      sensitive: true,
      phase: 'main',
      conditions: [
        { op: 'contains', args: { value: '{inventory[system_vendor][manufacturer]}', regex: '(?i)dell' } },
        { op: 'is-true', args: { value: '{plugin_data[auto_discovered]}' } },
      ],
      actions: [
        { op: 'set-attribute', args: { path: '/driver', value: 'idrac' } },
        { op: 'set-attribute', args: { path: '/driver_info/redfish_address', value: 'https://{inventory[bmc_address]}' } },
        { op: 'set-attribute', args: { path: '/driver_info/redfish_username', value: 'root' } },
        { op: 'log', args: { msg: 'Configured iDRAC driver for Dell server {node.name}', level: 'info' } },
      ],
    };
    const ctx = makeContext();
    const before = structuredClone(ctx);
    const builtin: InspectionRuleInput = { description: 'built-in, runs last', priority: -1, actions: [{ op: 'add-trait', args: { name: 'CUSTOM_LAST' } }] };
    const r = applyInspectionRules([builtin, rule], ctx);
    expect(r.failure).toBeNull();
    expect(r.nodeChanges).toEqual({
      driver: 'idrac',
      driver_info: { ipmi_address: '10.0.0.7', redfish_address: 'https://10.0.0.7', redfish_username: 'root' },
      traits: ['CUSTOM_OLD', 'CUSTOM_LAST'],
    });
    expect(r.resetInterfaces).toBe(true);
    expect(r.applied).toEqual(['rule-dell-bmc-setup', 'built-in, runs last']);
    expect(r.log).toContainEqual({ level: 'info', rule: 'rule-dell-bmc-setup', message: 'Configured iDRAC driver for Dell server node-7' });
    expect(ctx).toEqual(before);
  });

  it('sets several attributes with a loop of dict items (the upstream loop example)', () => {
    const r = run([
      {
        op: 'set-attribute',
        args: { path: '{item[path]}', value: '{item[value]}' },
        loop: [
          { path: '/driver_info/ipmi_username', value: 'admin' },
          { path: 'driver_info.ipmi_password', value: 'password' },
          { path: '/driver_info/ipmi_address', value: '{inventory[bmc_address]}' },
        ],
      },
    ], { node: { driver_info: {} } });
    expect(r.failure).toBeNull();
    expect(r.nodeChanges.driver_info).toEqual({ ipmi_username: 'admin', ipmi_password: 'password', ipmi_address: '10.0.0.7' });
  });

  it('formats dict values recursively', () => {
    const r = run([{ op: 'set-attribute', args: { path: '/properties/hw', value: { cpu_arch: '{inventory[cpu][architecture]}', bmc_address: '{inventory[bmc_address]}' } } }]);
    expect((r.nodeChanges.properties as Record<string, unknown>).hw).toEqual({ cpu_arch: 'x86_64', bmc_address: '10.0.0.7' });
  });

  it('extend-attribute (unique) and del-attribute', () => {
    const r = run([
      { op: 'extend-attribute', args: { path: '/extra/tags', value: 'x' } },
      { op: 'extend-attribute', args: ['/extra/tags', 'x', true] },
      { op: 'extend-attribute', args: { path: 'extra.tags', value: 'y', unique: true } },
      { op: 'del-attribute', args: { path: '/driver_info/ipmi_address' } },
      { op: 'del-attribute', args: { path: '/driver_info/not_there' } },
    ]);
    expect(r.failure).toBeNull();
    expect(r.nodeChanges.extra).toEqual({ tags: ['x', 'y'] });
    expect(r.nodeChanges.driver_info).toEqual({});
  });

  it('set-capability / unset-capability keep the "k:v" string form', () => {
    const r = run([
      { op: 'set-capability', args: { name: 'boot_mode', value: '{inventory[boot][current_boot_mode]}' } },
      { op: 'set-capability', args: { name: 'cpu_aes', value: 'true' } },
      { op: 'unset-capability', args: { name: 'cpu_aes' } },
      { op: 'set-capability', args: { name: 'disk_label', value: 'gpt' } },
    ]);
    expect((r.nodeChanges.properties as Record<string, unknown>).capabilities).toBe('boot_mode:uefi,disk_label:gpt');
  });

  it('set-capability on a dict capabilities keeps the dict', () => {
    const r = run([{ op: 'set-capability', args: { name: 'x', value: '1' } }], { node: { properties: { capabilities: { a: 'b' } } } });
    expect((r.nodeChanges.properties as Record<string, unknown>).capabilities).toEqual({ a: 'b', x: '1' });
  });

  it('add-trait / remove-trait (removing a missing trait only warns)', () => {
    const r = run([
      { op: 'add-trait', args: { name: 'CUSTOM_DELL' } },
      { op: 'remove-trait', args: ['CUSTOM_OLD'] },
      { op: 'remove-trait', args: { name: 'CUSTOM_MISSING' } },
    ]);
    expect(r.failure).toBeNull();
    expect(r.nodeChanges.traits).toEqual(['CUSTOM_DELL']);
    expect(r.log.some((l) => l.level === 'warning' && l.message.includes('CUSTOM_MISSING'))).toBe(true);
  });

  it('set / extend / unset plugin data', () => {
    const r = run([
      { op: 'set-plugin-data', args: { path: 'site.rack', value: 'r{inventory[cpu][count]}' } },
      { op: 'extend-plugin-data', args: { path: 'site.tags', value: 'a' } },
      { op: 'extend-plugin-data', args: { path: 'site.tags', value: 'a', unique: true } },
      { op: 'unset-plugin-data', args: { path: 'cpus' } },
    ]);
    expect(r.failure).toBeNull();
    expect(r.pluginDataChanged).toBe(true);
    expect(r.pluginData).toEqual({ root_disk: { name: '/dev/sda', size: 480103981056 }, auto_discovered: true, site: { rack: 'r8', tags: ['a'] } });
  });

  it('set / extend / del port attributes, by MAC address or UUID', () => {
    const r = run([
      { op: 'set-port-attribute', args: { port_id: '52:54:00:AA:BB:01', path: '/physical_network', value: 'physnet1' } },
      { op: 'set-port-attribute', args: { port_id: '0c9d1a84-5b1f-4b38-9f27-222222222222', path: 'local_link_connection.switch_id', value: 'aa:bb' } },
      { op: 'extend-port-attribute', args: { port_id: '52:54:00:aa:bb:01', path: '/extra/vlans', value: 10, unique: true } },
      { op: 'del-port-attribute', args: { port_id: '52:54:00:aa:bb:02', path: '/local_link_connection/switch_id' } },
    ]);
    expect(r.failure).toBeNull();
    expect(r.portChanges).toEqual([
      { uuid: '0c9d1a84-5b1f-4b38-9f27-111111111111', address: '52:54:00:aa:bb:01', changes: { physical_network: 'physnet1', extra: { vlans: [10] } } },
    ]);
    const unknownPort = run([{ op: 'set-port-attribute', args: { port_id: 'ff:ff:ff:ff:ff:ff', path: 'extra.x', value: 1 } }]);
    expect(unknownPort.failure?.message).toMatch(/port ff:ff:ff:ff:ff:ff was not found/);
  });

  it('fail stops the run with the message', () => {
    const r = applyInspectionRules(
      [
        { description: 'check', conditions: [{ op: 'lt', args: { values: ['{inventory[memory][physical_mb]}', '32768'] } }], actions: [{ op: 'fail', args: { msg: 'only {inventory[memory][physical_mb]} MiB' } }] },
        { description: 'after', actions: [{ op: 'add-trait', args: { name: 'CUSTOM_AFTER' } }] },
      ],
      makeContext(),
    );
    expect(r.failure).toEqual({ rule: 'check', message: 'only 16384 MiB', cause: 'fail-action' });
    expect(r.applied).toEqual(['check']);
  });

  it('a failed interpolation keeps the literal and warns (as Ironic does)', () => {
    const r = run([{ op: 'set-attribute', args: { path: '/extra/x', value: '{inventory.bmc_address}' } }]);
    expect(r.nodeChanges.extra).toEqual({ x: '{inventory.bmc_address}' });
    expect(r.log.some((l) => l.level === 'warning' && /interpolation failed/.test(l.message))).toBe(true);
  });

  it('masks secrets in templates unless told not to', () => {
    const pluginData = { bmc: { password: 's3cret' } };
    const rule: Op = { op: 'set-attribute', args: { path: '/extra/pw', value: '{plugin_data[bmc][password]}' } };
    expect(run([rule], { pluginData }).nodeChanges.extra).toEqual({ pw: '***' });
    const unmasked = applyInspectionRules([{ sensitive: true, actions: [rule] }], makeContext({ pluginData }), { maskSecrets: 'sensitive' });
    expect(unmasked.nodeChanges.extra).toEqual({ pw: 's3cret' });
  });

  it('shows templates the node with driver_info, instance_info and the agent token masked', () => {
    const node = { driver_info: { ipmi_password: 'bmc-pw', ipmi_username: 'admin' }, driver_internal_info: { agent_secret_token: 'tok' }, instance_info: { image_pull_secret: 'ps' } };
    const rule: Op = { op: 'set-attribute', args: { path: '/extra/copy', value: '{node.driver_info[ipmi_username]}:{node.driver_info[ipmi_password]}:{node.driver_internal_info[agent_secret_token]}:{node.instance_info[image_pull_secret]}' } };
    expect(run([rule], { node }).nodeChanges.extra).toEqual({ copy: 'admin:******:******:******' });
    const unmasked = applyInspectionRules([{ sensitive: true, actions: [rule] }], makeContext({ node }), { maskSecrets: 'sensitive' });
    expect(unmasked.nodeChanges.extra).toEqual({ copy: 'admin:bmc-pw:tok:ps' });
  });
});

describe('inspection rule ordering', () => {
  it('runs higher priority first, ties in the given order, and later rules see earlier changes', () => {
    const set = (id: string, priority: number, value: string): InspectionRuleInput => ({
      description: id,
      priority,
      actions: [{ op: 'extend-attribute', args: { path: '/extra/order', value } }],
    });
    const reader: InspectionRuleInput = {
      description: 'reader',
      priority: 0,
      conditions: [{ op: 'eq', args: { values: ['{node.extra[order]}', "['hi', 'mid-a', 'mid-b']"] } }],
      actions: [{ op: 'add-trait', args: { name: 'CUSTOM_SAW_ALL' } }],
    };
    const r = applyInspectionRules([reader, set('mid-a', 50, 'mid-a'), set('hi', 90, 'hi'), set('mid-b', 50, 'mid-b')], makeContext());
    expect(r.failure).toBeNull();
    expect(r.applied).toEqual(['hi', 'mid-a', 'mid-b', 'reader']);
    expect(r.nodeChanges.extra).toEqual({ order: ['hi', 'mid-a', 'mid-b'] });
    expect(r.nodeChanges.traits).toEqual(['CUSTOM_OLD', 'CUSTOM_SAW_ALL']);
  });

  it('an invalid rule fails the run naming the problem', () => {
    const r = applyInspectionRules([{ actions: [{ op: 'api-call', args: { url: 'http://127.0.0.1/' } }] }], makeContext());
    expect(r.failure?.cause).toBe('error');
    expect(r.failure?.message).toMatch(/Ingot does not run "api-call"/);
  });
});
