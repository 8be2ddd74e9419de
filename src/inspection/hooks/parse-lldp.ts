import type { Json } from '../../domain/node.js';
import { parseLldpTlvs } from '../lldp.js';
import { lldpTlvsFor } from './plugin-data.js';
import type { HookResult, InspectionHook } from './types.js';

/** Ironic's bound: one LLDPDU per physical interface, at most this many interfaces are parsed. */
export const MAX_LLDP_INTERFACES = 64;

/**
 * `parse-lldp`: decodes each interface's raw LLDP TLVs into plugin data `parsed_lldp`
 * (interface name -> `{switch_chassis_id, switch_port_id, switch_system_name, switch_port_vlans, …}`),
 * as Ironic's ParseLLDPHook. Interfaces without LLDP data are skipped; TLVs that cannot be decoded are
 * reported as warnings.
 */
export const parseLldpHook: InspectionHook = {
  name: 'parse-lldp',
  run(ctx) {
    const notes: NonNullable<HookResult['notes']> = [];
    let interfaces = ctx.payload.inventory.interfaces;
    if (interfaces.length > MAX_LLDP_INTERFACES) {
      notes.push({ level: 'warning', message: `${interfaces.length} interfaces exceed the ${MAX_LLDP_INTERFACES} parsed for LLDP; the rest are ignored` });
      interfaces = interfaces.slice(0, MAX_LLDP_INTERFACES);
    }
    const parsed: Record<string, Json> = { ...((ctx.pluginData.parsed_lldp as Record<string, Json> | undefined) ?? {}) };
    for (const iface of interfaces) {
      const tlvs = lldpTlvsFor(ctx, iface.name, iface.lldp);
      if (tlvs === null) continue;
      const { values, warnings } = parseLldpTlvs(tlvs);
      for (const w of warnings.slice(0, 10)) notes.push({ level: 'warning', message: `LLDP on ${iface.name}: ${w}` });
      if (Object.keys(values).length > 0) parsed[iface.name] = values;
    }
    if (Object.keys(parsed).length === 0) return { notes };
    return { pluginData: { parsed_lldp: parsed }, notes };
  },
};
