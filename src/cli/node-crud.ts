/** `ingot node create | list | show | delete`. */
import type { Command } from 'commander';
import type { WireNode } from '../protocol/client/wire.js';
import { NODE_INTERFACES } from '../protocol/client/wire.js';
import { action, withCommon } from './context.js';
import type { ClientIo, RunContext } from './context.js';
import { collect, jsonArg, keyValues, parseBool, parseCount, parseList } from './values.js';
import { columns, renderObject, renderRows } from './output.js';
import { renderError } from './api-error.js';
import type { Query } from './http-client.js';
import { fail } from '../shared/errors.js';

/** Columns of `node list` without `--long` (the fields of Ironic's non-detailed list). */
export const NODE_LIST_FIELDS = ['uuid', 'name', 'instance_uuid', 'power_state', 'provision_state', 'maintenance'];

/** Columns of `node list --long`. */
export const NODE_LONG_FIELDS = [
  'uuid', 'name', 'driver', 'resource_class', 'power_state', 'target_power_state', 'provision_state',
  'target_provision_state', 'maintenance', 'maintenance_reason', 'instance_uuid', 'conductor_group', 'conductor',
  'owner', 'lessee', 'last_error', 'provision_updated_at', 'created_at', 'updated_at',
];

/** Path of a node by UUID or name. */
export function nodePath(ident: string, ...rest: string[]): string {
  return ['nodes', encodeURIComponent(ident), ...rest].join('/');
}

/** A resource object without its link lists (`links`, `ports`, `states`, …), as shown by `show`. */
export function withoutLinks(obj: Record<string, unknown>): Record<string, unknown> {
  const isLinkList = (v: unknown) =>
    Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'object' && x !== null && 'href' in x && 'rel' in x);
  return Object.fromEntries(Object.entries(obj).filter(([k, v]) => k !== 'links' && !isLinkList(v)));
}

/** Prints one node. */
export function printNode(ctx: RunContext, node: Record<string, unknown>, fields?: string[]): void {
  ctx.out(renderObject(withoutLinks(node), ctx.format, fields));
}

interface CreateOptions {
  driver: string;
  name?: string;
  uuid?: string;
  driverInfo?: string[];
  property?: string[];
  extra?: string[];
  resourceClass?: string;
  owner?: string;
  lessee?: string;
  description?: string;
  conductorGroup?: string;
  chassisUuid?: string;
  shard?: string;
  parentNode?: string;
  automatedClean?: string;
  networkData?: string;
  [iface: string]: unknown;
}

interface ListOptions {
  provisionState?: string;
  driver?: string;
  maintenance?: boolean;
  associated?: boolean;
  resourceClass?: string;
  owner?: string;
  conductorGroup?: string;
  long?: boolean;
  fields?: string;
  limit?: string;
  sort?: string;
}

/** Adds create/list/show/delete to `node`. */
export function addNodeCrud(node: Command, io: ClientIo): void {
  const create = withCommon(node.command('create').description('Enroll a node'))
    .requiredOption('--driver <driver>', 'hardware type, e.g. fake-hardware, redfish, ipmi')
    .option('--name <name>', 'unique name')
    .option('--uuid <uuid>', 'UUID (generated when omitted)')
    .option('--driver-info <key=value>', 'driver_info entry (repeatable)', collect)
    .option('--property <key=value>', 'properties entry (repeatable)', collect)
    .option('--extra <key=value>', 'extra entry (repeatable)', collect)
    .option('--resource-class <class>', 'resource class')
    .option('--owner <owner>', 'owner project')
    .option('--lessee <lessee>', 'lessee project')
    .option('--description <text>', 'description')
    .option('--conductor-group <group>', 'conductor group')
    .option('--chassis-uuid <uuid>', 'chassis UUID')
    .option('--shard <shard>', 'shard')
    .option('--parent-node <node>', 'parent node')
    .option('--automated-clean <bool>', 'automated cleaning: true or false')
    .option('--network-data <json>', 'network data, JSON or @file');
  for (const iface of NODE_INTERFACES) create.option(`--${iface}-interface <impl>`, `${iface} interface implementation`);
  create.action(
    action<CreateOptions>(io, async (ctx, _args, o) => {
      const body: Record<string, unknown> = {
        driver: o.driver,
        name: o.name,
        uuid: o.uuid,
        driver_info: keyValues(o.driverInfo, '--driver-info'),
        properties: keyValues(o.property, '--property'),
        extra: keyValues(o.extra, '--extra'),
        resource_class: o.resourceClass,
        owner: o.owner,
        lessee: o.lessee,
        description: o.description,
        conductor_group: o.conductorGroup,
        chassis_uuid: o.chassisUuid,
        shard: o.shard,
        parent_node: o.parentNode,
        automated_clean: o.automatedClean === undefined ? undefined : parseBool(o.automatedClean, '--automated-clean'),
        network_data: o.networkData === undefined ? undefined : await jsonArg(o.networkData, '--network-data'),
      };
      for (const iface of NODE_INTERFACES) body[`${iface}_interface`] = o[`${iface}Interface`];
      const created = await ctx.client.request<WireNode>('POST', 'nodes', compact(body));
      printNode(ctx, created);
    }),
  );

  withCommon(node.command('list').description('List nodes (all pages unless --limit)'))
    .option('--provision-state <state>', 'only nodes in this provision state')
    .option('--driver <driver>', 'only nodes with this driver')
    .option('--maintenance', 'only nodes in maintenance')
    .option('--no-maintenance', 'only nodes not in maintenance')
    .option('--associated', 'only nodes with an instance')
    .option('--unassociated', 'only nodes without an instance')
    .option('--resource-class <class>', 'only nodes of this resource class')
    .option('--owner <owner>', 'only nodes of this owner')
    .option('--conductor-group <group>', 'only nodes of this conductor group')
    .option('--long', 'show more columns (detailed list)')
    .option('--fields <fields>', 'comma-separated fields to show')
    .option('--limit <n>', 'read one page of at most n nodes (0: all)')
    .option('--sort <key[:dir]>', 'sort key and direction (asc or desc)')
    .action(
      action<ListOptions & { unassociated?: boolean }>(io, async (ctx, _args, o) => {
        const fields = o.fields ? parseList(o.fields) : undefined;
        const query: Query = {
          provision_state: o.provisionState,
          driver: o.driver,
          maintenance: o.maintenance,
          associated: o.unassociated ? false : o.associated,
          resource_class: o.resourceClass,
          owner: o.owner,
          conductor_group: o.conductorGroup,
          ...listParams(o),
        };
        if (fields) query['fields'] = fields.join(',');
        else if (o.long) query['detail'] = true;
        const nodes = await readList<WireNode>(ctx, 'nodes', 'nodes', query, o.limit);
        if (o.long && !fields && ctx.format === 'json') {
          ctx.out(JSON.stringify(nodes.map(withoutLinks), null, 2) + '\n');
          return;
        }
        const shown = fields ?? (o.long ? NODE_LONG_FIELDS.filter((f) => nodes.length === 0 || nodes.some((n) => f in n)) : NODE_LIST_FIELDS);
        ctx.out(renderRows(nodes, columns(shown), ctx.format));
      }),
    );

  withCommon(node.command('show').description('Show a node').argument('<node>', 'node UUID or name'))
    .option('--fields <fields>', 'comma-separated fields to show')
    .action(
      action<{ fields?: string }>(io, async (ctx, [ident], o) => {
        const fields = o.fields ? parseList(o.fields) : undefined;
        const n = await ctx.client.get<WireNode>(nodePath(ident as string), fields ? { fields: fields.join(',') } : {});
        printNode(ctx, n, fields);
      }),
    );

  withCommon(node.command('delete').description('Delete nodes').argument('<nodes...>', 'node UUIDs or names')).action(
    action(io, async (ctx, [idents]) => {
      await deleteEach(ctx, 'node', idents as string[], (id) => nodePath(id));
    }),
  );
}

/** `limit` / `sort_key` / `sort_dir` query parameters of a list command. */
export function listParams(o: { limit?: string; sort?: string }): Query {
  const q: Query = {};
  if (o.limit !== undefined) {
    const n = parseCount(o.limit, '--limit');
    if (n > 0) q['limit'] = n;
  }
  if (o.sort) {
    const [key, dir] = o.sort.split(':');
    if (dir !== undefined && dir !== 'asc' && dir !== 'desc') throw fail('sortDirectionOptionInvalid', { dir });
    q['sort_key'] = key;
    q['sort_dir'] = dir;
  }
  return q;
}

/** One page when `--limit N` (N > 0) is given, else every page. */
export async function readList<T>(ctx: RunContext, path: string, key: string, query: Query, limit?: string): Promise<T[]> {
  if (limit !== undefined && Number(limit) > 0) {
    const page = await ctx.client.get<Record<string, unknown>>(path, query);
    const items = page?.[key];
    if (!Array.isArray(items)) throw new Error(`GET /v1/${path}: the answer has no '${key}' list`);
    return items as T[];
  }
  return ctx.client.listAll<T>(path, key, query);
}

/** Deletes each resource, reporting each result; fails at the end when any failed. */
export async function deleteEach(ctx: RunContext, kind: string, idents: string[], path: (id: string) => string): Promise<void> {
  let failed = 0;
  for (const id of idents) {
    try {
      await ctx.client.request('DELETE', path(id));
      ctx.out(`Deleted ${kind} ${id}\n`);
    } catch (err) {
      failed += 1;
      ctx.err(`ingot: failed to delete ${kind} ${id}: ${renderError(err)}\n`);
    }
  }
  if (failed > 0) throw new Error(`${failed} of ${idents.length} ${kind}s could not be deleted`);
}

/** The object without `undefined` members. */
export function compact(obj: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined));
}
