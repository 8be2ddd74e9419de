/** `ingot node boot-device | maintenance | validate | history`. */
import type { Command } from 'commander';
import type { WireBootDevice, WireHistoryEvent, WireSupportedBootDevices, WireValidation } from '../protocol/client/wire.js';
import { action, withCommon } from './context.js';
import type { ClientIo } from './context.js';
import { cell, columns, renderObject, renderRows, renderTable } from './output.js';
import { nodePath, withoutLinks } from './node-crud.js';

/** Text of a history event's phase duration (`duration` in seconds or `duration_ms`), or `None`. */
export function formatDuration(ev: WireHistoryEvent): string {
  const ms = typeof ev.duration_ms === 'number' ? ev.duration_ms : typeof ev.duration === 'number' ? ev.duration * 1000 : undefined;
  if (ms === undefined) return ev.duration === undefined || ev.duration === null ? 'None' : String(ev.duration);
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** Adds boot-device, maintenance, validate and history to `node`. */
export function addNodeMisc(node: Command, io: ClientIo): void {
  const boot = node.command('boot-device').description('Boot device of a node');
  withCommon(boot.command('set').description('Set the boot device').argument('<node>').argument('<device>', 'pxe, disk, cdrom, bios, safe…'))
    .option('--persistent', 'keep the device for every boot, not only the next')
    .action(
      action<{ persistent?: boolean }>(io, async (ctx, [ident, device], o) => {
        const body: WireBootDevice = { boot_device: device as string, persistent: o.persistent ?? false };
        await ctx.client.request('PUT', nodePath(ident as string, 'management', 'boot_device'), body);
      }),
    );
  withCommon(boot.command('show').description('Show the boot device').argument('<node>'))
    .option('--supported', 'show the supported boot devices instead')
    .action(
      action<{ supported?: boolean }>(io, async (ctx, [ident], o) => {
        if (o.supported) {
          const s = await ctx.client.get<WireSupportedBootDevices>(nodePath(ident as string, 'management', 'boot_device', 'supported'));
          ctx.out(renderObject(s as unknown as Record<string, unknown>, ctx.format, ['supported_boot_devices']));
          return;
        }
        const b = await ctx.client.get<WireBootDevice>(nodePath(ident as string, 'management', 'boot_device'));
        ctx.out(renderObject(b as unknown as Record<string, unknown>, ctx.format, ['boot_device', 'persistent']));
      }),
    );

  const maint = node.command('maintenance').description('Maintenance mode of a node');
  withCommon(maint.command('set').description('Put a node in maintenance').argument('<node>'))
    .option('--reason <reason>', 'why the node is in maintenance')
    .action(
      action<{ reason?: string }>(io, async (ctx, [ident], o) => {
        await ctx.client.request('PUT', nodePath(ident as string, 'maintenance'), o.reason === undefined ? {} : { reason: o.reason });
      }),
    );
  withCommon(maint.command('unset').description('Take a node out of maintenance').argument('<node>')).action(
    action(io, async (ctx, [ident]) => {
      await ctx.client.request('DELETE', nodePath(ident as string, 'maintenance'));
    }),
  );

  withCommon(node.command('validate').description("Validate a node's driver interfaces").argument('<node>')).action(
    action(io, async (ctx, [ident]) => {
      const v = await ctx.client.get<WireValidation>(nodePath(ident as string, 'validate'));
      const rows = Object.keys(v)
        .sort()
        .map((iface) => ({ interface: iface, result: v[iface]?.result ?? null, reason: v[iface]?.reason ?? null }));
      if (ctx.format === 'table') {
        ctx.out(renderTable(['Interface', 'Result', 'Reason'], rows.map((r) => [r.interface, cell(r.result), cell(r.reason)])));
      } else {
        ctx.out(renderRows(rows, columns(['interface', 'result', 'reason']), ctx.format));
      }
    }),
  );

  const history = node.command('history').description('State history of a node');
  withCommon(history.command('list').description("List a node's history events").argument('<node>'))
    .option('--long', 'show conductor, event type and user too')
    .action(
      action<{ long?: boolean }>(io, async (ctx, [ident], o) => {
        const events = await ctx.client.listAll<WireHistoryEvent>(nodePath(ident as string, 'history'), 'history', o.long ? { detail: true } : {});
        const fields = ['uuid', 'created_at', 'severity', 'event'];
        if (o.long) fields.push('event_type', 'conductor', 'user');
        const hasDuration = events.some((e) => e.duration !== undefined || e.duration_ms !== undefined);
        if (ctx.format === 'json') {
          if (hasDuration) fields.push(events.some((e) => e.duration !== undefined) ? 'duration' : 'duration_ms');
          ctx.out(renderRows(events, columns(fields), 'json'));
          return;
        }
        const cols = columns(fields);
        const rows = events.map((e) => ({ ...e, _duration: formatDuration(e) }));
        if (hasDuration) cols.push({ field: '_duration', label: 'Duration' });
        ctx.out(renderRows(rows, cols, ctx.format));
      }),
    );
  withCommon(history.command('get').description('Show one history event').argument('<node>').argument('<event>', 'event UUID')).action(
    action(io, async (ctx, [ident, event]) => {
      const ev = await ctx.client.get<WireHistoryEvent>(nodePath(ident as string, 'history', encodeURIComponent(event as string)));
      ctx.out(renderObject(withoutLinks(ev), ctx.format));
    }),
  );
}
