/** `ingot node set | unset`: JSON Patch updates of a node. */
import type { Command } from 'commander';
import { NODE_INTERFACES } from '../protocol/client/wire.js';
import { fail } from '../shared/errors.js';
import { action, withCommon } from './context.js';
import type { ClientIo } from './context.js';
import { PatchBuilder } from './patch.js';
import { collect, jsonArg, keyValues, parseBool } from './values.js';
import { nodePath } from './node-crud.js';

/** Plain string fields that `set --<field>` replaces and `unset --<field>` removes. */
const STRING_FIELDS = [
  'name', 'driver', 'description', 'resource_class', 'owner', 'lessee', 'conductor_group', 'instance_uuid',
  'chassis_uuid', 'shard', 'parent_node', 'protected_reason', 'retired_reason',
] as const;

/** Free-form dict fields with their option names. */
const DICTS = [
  ['driver_info', 'driver-info'],
  ['properties', 'property'],
  ['extra', 'extra'],
  ['instance_info', 'instance-info'],
] as const;

/** Flags (`--protected`, `--retired`) and JSON fields. */
const FLAGS = ['protected', 'retired'] as const;
const JSON_FIELDS = [
  ['target_raid_config', 'target-raid-config'],
  ['network_data', 'network-data'],
] as const;

const dash = (f: string) => f.replace(/_/g, '-');
const camel = (f: string) => f.replace(/[_-](\w)/g, (_, c: string) => c.toUpperCase());

/** Adds `set` and `unset` to `node`. */
export function addNodeUpdate(node: Command, io: ClientIo): void {
  const set = withCommon(node.command('set').description('Update a node (JSON Patch)').argument('<node>', 'node UUID or name'));
  for (const f of STRING_FIELDS) set.option(`--${dash(f)} <value>`, `set ${f}`);
  for (const [field, opt] of DICTS) set.option(`--${opt} <key=value>`, `set a ${field} entry (repeatable)`, collect);
  for (const f of FLAGS) set.option(`--${f}`, `mark the node ${f}`);
  for (const [field, opt] of JSON_FIELDS) set.option(`--${opt} <json>`, `set ${field}: JSON or @file`);
  set.option('--automated-clean <bool>', 'enable or disable automated cleaning: true or false');
  for (const i of NODE_INTERFACES) {
    set.option(`--${i}-interface <impl>`, `set the ${i} interface`);
    set.option(`--reset-${i}-interface`, `reset the ${i} interface to the driver's default`);
  }
  set.action(
    action<Record<string, unknown>>(io, async (ctx, [ident], o) => {
      const p = new PatchBuilder();
      for (const f of STRING_FIELDS) p.set(f, o[camel(f)] as string | undefined);
      for (const f of FLAGS) if (o[f]) p.set(f, true);
      if (o['automatedClean'] !== undefined) p.set('automated_clean', parseBool(o['automatedClean'] as string, '--automated-clean'));
      for (const [field, opt] of JSON_FIELDS) {
        const raw = o[camel(opt)] as string | undefined;
        if (raw !== undefined) p.set(field, await jsonArg(raw, `--${opt}`));
      }
      for (const i of NODE_INTERFACES) {
        p.set(`${i}_interface`, o[`${i}Interface`] as string | undefined);
        p.remove(`${i}_interface`, o[camel(`reset-${i}-interface`)] as boolean | undefined);
      }
      for (const [field, opt] of DICTS) p.setEntries(field, keyValues(o[camel(opt)] as string[] | undefined, `--${opt}`));
      if (p.ops.length === 0) throw fail('nothingToChange', { verb: 'set' });
      await ctx.client.request('PATCH', nodePath(ident as string), p.ops);
    }),
  );

  const unset = withCommon(node.command('unset').description('Remove node fields (JSON Patch)').argument('<node>', 'node UUID or name'));
  for (const f of STRING_FIELDS) unset.option(`--${dash(f)}`, `unset ${f}`);
  for (const [field, opt] of DICTS) unset.option(`--${opt} <key>`, `remove a ${field} key (repeatable)`, collect);
  for (const f of FLAGS) unset.option(`--${f}`, `unset ${f}`);
  for (const [field, opt] of JSON_FIELDS) unset.option(`--${opt}`, `unset ${field}`);
  unset.option('--automated-clean', 'unset automated_clean (use the conductor default)');
  for (const i of NODE_INTERFACES) unset.option(`--${i}-interface`, `reset the ${i} interface to the driver's default`);
  unset.action(
    action<Record<string, unknown>>(io, async (ctx, [ident], o) => {
      const p = new PatchBuilder();
      for (const f of STRING_FIELDS) p.remove(f, o[camel(f)] as boolean | undefined);
      for (const f of FLAGS) p.remove(f, o[f] as boolean | undefined);
      for (const [field, opt] of JSON_FIELDS) p.remove(field, o[camel(opt)] as boolean | undefined);
      p.remove('automated_clean', o['automatedClean'] as boolean | undefined);
      for (const i of NODE_INTERFACES) p.remove(`${i}_interface`, o[`${i}Interface`] as boolean | undefined);
      for (const [field, opt] of DICTS) p.removeKeys(field, o[camel(opt)] as string[] | undefined);
      if (p.ops.length === 0) throw fail('nothingToChange', { verb: 'unset' });
      await ctx.client.request('PATCH', nodePath(ident as string), p.ops);
    }),
  );
}
