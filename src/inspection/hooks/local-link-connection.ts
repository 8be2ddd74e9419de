import type { JsonObject } from '../../domain/node.js';
import { decodeChassisId, decodePortId, hexToBytes, LLDP_TLV } from '../lldp.js';
import { allInterfaces, lldpTlvsFor } from './plugin-data.js';
import type { HookResult, InspectionHook } from './types.js';

/**
 * The local_link_connection an interface's LLDP TLVs describe: `port_id` from the Port ID TLV (any
 * subtype), `switch_id` from the Chassis ID TLV when it is a MAC address (Ironic's
 * LocalLinkConnectionHook), and — an Ingot addition — `switch_info` from the System Name TLV. The first TLV
 * of each kind wins. Returns null when the data is unusable (a value that is not hex, or a Port/Chassis
 * ID that cannot be decoded), as Ironic then leaves the port alone.
 */
export function linkFromLldp(tlvs: readonly (readonly [number, string])[]): { link: JsonObject; problem: string | null } {
  const link: JsonObject = {};
  for (const [type, value] of tlvs) {
    const data = hexToBytes(value);
    if (!data) return { link: {}, problem: `TLV type ${type} is not hexadecimal` };
    try {
      if (type === LLDP_TLV.PORT_ID && !('port_id' in link)) {
        link.port_id = decodePortId(data).value;
      } else if (type === LLDP_TLV.CHASSIS_ID && !('switch_id' in link)) {
        const chassis = decodeChassisId(data);
        if (chassis.subtype === 'mac_address') link.switch_id = chassis.value;
      } else if (type === LLDP_TLV.SYSTEM_NAME && !('switch_info' in link)) {
        const name = new TextDecoder('utf-8', { fatal: true }).decode(data);
        if (name) link.switch_info = name;
      }
    } catch (err) {
      return { link: {}, problem: `TLV type ${type} cannot be decoded: ${(err as Error).message}` };
    }
  }
  return { link, problem: null };
}

/**
 * `local-link-connection`: fills `port_id`, `switch_id` and `switch_info` of each port's
 * `local_link_connection` from its NIC's LLDP data; keys the port already has are kept (an operator's
 * value wins). Ports are matched by MAC among the node's ports, including those `ports` just created.
 */
export const localLinkConnectionHook: InspectionHook = {
  name: 'local-link-connection',
  dependencies: ['validate-interfaces'],
  run(ctx) {
    const all = allInterfaces(ctx);
    const byAddress = new Map(ctx.ports.map((p) => [p.address, p]));
    const result: Required<Pick<HookResult, 'updatePorts' | 'notes'>> = { updatePorts: [], notes: [] };
    for (const iface of ctx.payload.inventory.interfaces) {
      const checked = all[iface.name];
      if (!checked) continue;
      const port = byAddress.get(checked.mac_address);
      if (!port) continue;
      const tlvs = lldpTlvsFor(ctx, iface.name, iface.lldp);
      if (tlvs === null) continue;
      const { link, problem } = linkFromLldp(tlvs);
      if (problem) {
        result.notes.push({ level: 'warning', message: `LLDP on ${iface.name}: ${problem}; local_link_connection not updated` });
        continue;
      }
      const added = Object.fromEntries(Object.entries(link).filter(([k]) => !(k in port.local_link_connection)));
      if (Object.keys(added).length === 0) continue;
      result.updatePorts.push({ address: port.address, fields: { local_link_connection: { ...port.local_link_connection, ...added } } });
    }
    return result;
  },
};
