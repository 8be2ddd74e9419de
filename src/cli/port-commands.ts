/** `ingot port create | list | show | set | unset | delete`. */
import type { Command, OutputConfiguration } from 'commander';
import type { WireNode, WirePort } from '../protocol/client/wire.js';
import { ApiError } from './api-error.js';
import { action, withCommon } from './context.js';
import type { ClientIo, RunContext } from './context.js';
import { columns, renderObject, renderRows } from './output.js';
import { PatchBuilder } from './patch.js';
import { collect, keyValues, parseBool, parseList } from './values.js';
import { compact, deleteEach, listParams, nodePath, readList, withoutLinks } from './node-crud.js';
import { ERRORS, errorMessage, fail } from '../shared/errors.js';
import { isUuid } from '../shared/ids.js';
import type { Query } from './http-client.js';

/** Columns of `port list`, and with `--long`. */
export const PORT_LIST_FIELDS = ['uuid', 'address'];
export const PORT_LONG_FIELDS = [
  'uuid', 'address', 'node_uuid', 'portgroup_uuid', 'pxe_enabled', 'physical_network', 'local_link_connection',
  'extra', 'created_at', 'updated_at',
];


/** The UUID of a node given by UUID or name (ports refer to nodes by UUID only). */
export async function nodeUuid(ctx: RunContext, ident: string): Promise<string> {
  if (isUuid(ident)) return ident;
  const query = ctx.client.minor >= 8 ? { fields: 'uuid' } : {};
  const n = await ctx.client.get<WireNode>(nodePath(ident), query);
  return n.uuid;
}

function portPath(ident: string): string {
  return `ports/${encodeURIComponent(ident)}`;
}

/** A port by address (`GET /v1/ports?address=`), or 404 when none. */
async function portByAddress(ctx: RunContext, address: string): Promise<WirePort> {
  const query: Query = ctx.client.minor >= 43 ? { address, detail: true } : { address };
  const path = ctx.client.minor >= 43 ? 'ports' : 'ports/detail';
  const page = await ctx.client.get<{ ports?: WirePort[] }>(path, query);
  const port = page?.ports?.[0];
  if (!port) throw new ApiError(ERRORS.PortNotFound.status, errorMessage('portAddressNotFound', { address }).message);
  return port;
}

interface PortOptions {
  node?: string;
  address?: string;
  uuid?: string;
  name?: string;
  pxeEnabled?: string | boolean;
  pxeDisabled?: boolean;
  physicalNetwork?: string | boolean;
  extra?: string[];
  localLinkConnection?: string[];
  portgroup?: string;
}

/** The options `port create` and `port set` share: the port's name, network, group and key=value maps. */
function withPortFields(cmd: Command): Command {
  return cmd
    .option('--name <name>', 'port name')
    .option('--physical-network <name>', 'physical network of the port')
    .option('--port-group <uuid>', 'port group UUID or name')
    .option('--extra <key=value>', 'extra entry (repeatable)', collect)
    .option('--local-link-connection <key=value>', 'switch_id, port_id, switch_info (repeatable)', collect);
}

/** Adds the `port` command group to `program`. */
export function addPortCommands(program: Command, io: ClientIo, output?: OutputConfiguration): void {
  const port = program.command('port').description('Manage the network ports of nodes (Ironic API)');
  if (output) port.configureOutput(output);

  withPortFields(withCommon(port.command('create').description('Create a port').argument('<address>', 'MAC address')))
    .requiredOption('--node <node>', 'node UUID or name')
    .option('--uuid <uuid>', 'UUID (generated when omitted)')
    .option('--pxe-enabled <bool>', 'whether the node may PXE-boot from this port: true or false')
    .action(
      action<PortOptions & { portGroup?: string }>(io, async (ctx, [address], o) => {
        const body = compact({
          address,
          node_uuid: await nodeUuid(ctx, o.node as string),
          uuid: o.uuid,
          name: o.name,
          pxe_enabled: o.pxeEnabled === undefined ? undefined : parseBool(String(o.pxeEnabled), '--pxe-enabled'),
          physical_network: o.physicalNetwork,
          portgroup_uuid: o.portGroup,
          extra: keyValues(o.extra, '--extra'),
          local_link_connection: keyValues(o.localLinkConnection, '--local-link-connection'),
        });
        const created = await ctx.client.request<WirePort>('POST', 'ports', body);
        ctx.out(renderObject(withoutLinks(created), ctx.format));
      }),
    );

  withCommon(port.command('list').description('List ports (all pages unless --limit)'))
    .option('--node <node>', 'only ports of this node (UUID or name)')
    .option('--address <mac>', 'only the port with this address')
    .option('--long', 'show more columns (detailed list)')
    .option('--fields <fields>', 'comma-separated fields to show')
    .option('--limit <n>', 'read one page of at most n ports (0: all)')
    .option('--sort <key[:dir]>', 'sort key and direction (asc or desc)')
    .action(
      action<PortOptions & { long?: boolean; fields?: string; limit?: string; sort?: string }>(io, async (ctx, _args, o) => {
        const fields = o.fields ? parseList(o.fields) : undefined;
        const query: Query = { node: o.node, address: o.address, ...listParams(o) };
        if (fields) query['fields'] = fields.join(',');
        else if (o.long) query['detail'] = true;
        const ports = await readList<WirePort>(ctx, 'ports', 'ports', query, o.limit);
        const shown = fields ?? (o.long ? PORT_LONG_FIELDS : PORT_LIST_FIELDS);
        ctx.out(renderRows(ports, columns(shown), ctx.format));
      }),
    );

  withCommon(port.command('show').description('Show a port').argument('<port>', 'port UUID (or MAC address with --address)'))
    .option('--address', 'the argument is the MAC address of the port')
    .option('--fields <fields>', 'comma-separated fields to show')
    .action(
      action<{ address?: boolean; fields?: string }>(io, async (ctx, [ident], o) => {
        const fields = o.fields ? parseList(o.fields) : undefined;
        const p = o.address
          ? await portByAddress(ctx, ident as string)
          : await ctx.client.get<WirePort>(portPath(ident as string), fields ? { fields: fields.join(',') } : {});
        ctx.out(renderObject(withoutLinks(p), ctx.format, fields));
      }),
    );

  withPortFields(withCommon(port.command('set').description('Update a port (JSON Patch)').argument('<port>', 'port UUID')))
    .option('--address <mac>', 'new MAC address')
    .option('--node <node>', 'move the port to this node (UUID or name)')
    .option('--pxe-enabled', 'allow PXE boot from this port')
    .option('--pxe-disabled', 'forbid PXE boot from this port')
    .action(
      action<PortOptions & { portGroup?: string }>(io, async (ctx, [ident], o) => {
        if (o.pxeEnabled && o.pxeDisabled) throw fail('pxeOptionsExclusive');
        const p = new PatchBuilder()
          .set('address', o.address)
          .set('node_uuid', o.node === undefined ? undefined : await nodeUuid(ctx, o.node))
          .set('name', o.name)
          .set('pxe_enabled', o.pxeEnabled ? true : o.pxeDisabled ? false : undefined)
          .set('physical_network', o.physicalNetwork as string | undefined)
          .set('portgroup_uuid', o.portGroup)
          .setEntries('extra', keyValues(o.extra, '--extra'))
          .setEntries('local_link_connection', keyValues(o.localLinkConnection, '--local-link-connection'));
        if (p.ops.length === 0) throw fail('nothingToChange', { verb: 'set' });
        await ctx.client.request('PATCH', portPath(ident as string), p.ops);
      }),
    );

  withCommon(port.command('unset').description('Remove port fields (JSON Patch)').argument('<port>', 'port UUID'))
    .option('--name', 'unset the name')
    .option('--physical-network', 'unset the physical network')
    .option('--port-group', 'remove the port from its port group')
    .option('--extra <key>', 'remove an extra key (repeatable)', collect)
    .option('--local-link-connection <key>', 'remove a local_link_connection key (repeatable)', collect)
    .action(
      action<{ name?: boolean; physicalNetwork?: boolean; portGroup?: boolean; extra?: string[]; localLinkConnection?: string[] }>(
        io,
        async (ctx, [ident], o) => {
          const p = new PatchBuilder()
            .remove('name', o.name)
            .remove('physical_network', o.physicalNetwork)
            .remove('portgroup_uuid', o.portGroup)
            .removeKeys('extra', o.extra)
            .removeKeys('local_link_connection', o.localLinkConnection);
          if (p.ops.length === 0) throw fail('nothingToChange', { verb: 'unset' });
          await ctx.client.request('PATCH', portPath(ident as string), p.ops);
        },
      ),
    );

  withCommon(port.command('delete').description('Delete ports').argument('<ports...>', 'port UUIDs')).action(
    action(io, async (ctx, [idents]) => {
      await deleteEach(ctx, 'port', idents as string[], portPath);
    }),
  );
}
