import type { HookContext } from './types.js';
import type { CheckedInterface } from './validate-interfaces.js';

/** `all_interfaces` from plugin data (set by validate-interfaces), or an empty record. */
export function allInterfaces(ctx: HookContext): Record<string, CheckedInterface> {
  return (ctx.pluginData.all_interfaces as Record<string, CheckedInterface> | undefined) ?? {};
}

/** `valid_interfaces` from plugin data (set by validate-interfaces), or an empty record. */
export function validInterfaces(ctx: HookContext): Record<string, CheckedInterface> {
  return (ctx.pluginData.valid_interfaces as Record<string, CheckedInterface> | undefined) ?? {};
}

/**
 * Raw LLDP TLVs for an interface: plugin data `lldp_raw` (where IPA's lldp collector puts them), then
 * `inventory.lldp_raw`, then the interface's own `lldp` field (older agents), as Ironic looks them up.
 */
export function lldpTlvsFor(ctx: HookContext, name: string, own: [number, string][] | null | undefined): [number, string][] | null {
  const fromPlugin = (ctx.pluginData.lldp_raw as Record<string, [number, string][]> | null | undefined)?.[name];
  if (fromPlugin && fromPlugin.length > 0) return fromPlugin;
  const fromInventory = ctx.payload.inventory.lldp_raw?.[name];
  if (fromInventory && fromInventory.length > 0) return fromInventory;
  return own ?? null;
}
