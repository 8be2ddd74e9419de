import type { JsonObject } from '../../domain/node.js';
import { bootMac } from './validate-interfaces.js';
import { allInterfaces, validInterfaces } from './plugin-data.js';
import type { HookResult, InspectionHook } from './types.js';

/**
 * `ports`: creates a port for every interface `validate-interfaces` selected (unless `add_ports` is
 * `disabled`), deletes ports `keep_ports` does not keep, and sets `pxe_enabled` on existing ports to match
 * the boot NIC when `update_pxe_enabled` is on (Ironic's PortsHook). A MAC that already has a port is
 * left as it is. A DHCP client id goes into the new port's `extra["client-id"]`, as Ironic does.
 *
 * NOTE: when the agent does not know the boot NIC, Ironic would create every port with
 * `pxe_enabled: false` and clear the flag on existing ports; Ingot creates them with `pxe_enabled: true`
 * (the API's default) and leaves existing ports' flag alone, so a node stays network-bootable.
 */
export const portsHook: InspectionHook = {
  name: 'ports',
  dependencies: ['validate-interfaces'],
  run(ctx) {
    const { config, ports } = ctx;
    const all = allInterfaces(ctx);
    const valid = validInterfaces(ctx);
    const knowsBootNic = bootMac(ctx.payload) !== null;
    const result: Required<Pick<HookResult, 'createPorts' | 'updatePorts' | 'deletePorts' | 'notes'>> = { createPorts: [], updatePorts: [], deletePorts: [], notes: [] };
    const existing = new Set(ports.map((p) => p.address));

    if (config.add_ports !== 'disabled') {
      for (const iface of Object.values(valid)) {
        if (existing.has(iface.mac_address)) continue;
        const extra: JsonObject = iface.client_id ? { 'client-id': iface.client_id } : {};
        const pxe = knowsBootNic ? iface.pxe_enabled : true;
        result.createPorts.push({ address: iface.mac_address, fields: { pxe_enabled: pxe, extra } });
        result.notes.push({ level: 'info', message: `port ${iface.mac_address} (${iface.name}) created${pxe && knowsBootNic ? ' (PXE booting)' : ''}` });
      }
    }

    let expected: Set<string> | null = null;
    if (config.keep_ports === 'present') expected = new Set(Object.values(all).map((i) => i.mac_address));
    else if (config.keep_ports === 'added') expected = new Set(Object.values(valid).map((i) => i.mac_address));
    const pxeMacs = new Set(Object.values(all).filter((i) => i.pxe_enabled).map((i) => i.mac_address));

    for (const port of ports) {
      if (expected && expected.size > 0 && !expected.has(port.address)) {
        const reason = `its MAC ${port.address} is not in the expected MAC list [${[...expected].sort().join(', ')}] (keep_ports = ${config.keep_ports})`;
        result.deletePorts.push({ address: port.address, reason });
      } else if (config.update_pxe_enabled && knowsBootNic) {
        const pxe = pxeMacs.has(port.address);
        if (pxe !== port.pxe_enabled) result.updatePorts.push({ address: port.address, fields: { pxe_enabled: pxe } });
      }
    }
    return result;
  },
};
