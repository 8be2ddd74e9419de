import type { InspectionPayload, InventoryInterface } from '../../protocol/agent/inventory.js';
import type { InspectorConfig } from '../../config/inspector.js';
import { isLoopback } from '../../shared/loopback.js';
import { isMac48, macFromBootif } from '../../shared/mac.js';
import type { HookResult, InspectionHook } from './types.js';

/** An interface as `validate-interfaces` records it in plugin data (Ironic's `all_interfaces` entries). */
export interface CheckedInterface extends InventoryInterface {
  /** True for the NIC the machine booted from. */
  pxe_enabled: boolean;
}

/** The MAC of the boot NIC: `inventory.boot.pxe_interface`, else the payload's `boot_interface`. */
export function bootMac(payload: InspectionPayload): string | null {
  return macFromBootif(payload.inventory.boot?.pxe_interface) ?? macFromBootif(payload.boot_interface);
}

function ipOf(iface: InventoryInterface): string | null {
  return iface.ipv4_address || iface.ipv6_address || null;
}

/**
 * `validate-interfaces` (preprocess): records every usable interface in plugin data as `all_interfaces`
 * (name -> interface with `pxe_enabled`), those `add_ports` selects as `valid_interfaces`, and their MACs as
 * `macs`; fails when no interface qualifies (Ironic's ValidateInterfacesHook).
 *
 * Interfaces whose hardware address is not a 6-octet MAC (InfiniBand) are skipped, as is the loopback.
 * NOTE: with `add_ports = pxe` and no known boot NIC, Ironic's warning says it adds the ports with IP
 * addresses but its code adds all; Ingot adds those with an IP address (the legacy inspector's
 * behaviour), and all when none has one, so it is never stricter than Ironic.
 */
export function checkInterfaces(payload: InspectionPayload, config: Pick<InspectorConfig, 'add_ports'>): HookResult & { all: Record<string, CheckedInterface>; valid: Record<string, CheckedInterface> } {
  const notes: NonNullable<HookResult['notes']> = [];
  const pxeMac = bootMac(payload);
  const all: Record<string, CheckedInterface> = {};
  for (const iface of payload.inventory.interfaces) {
    if (!isMac48(iface.mac_address)) {
      notes.push({ level: 'warning', message: `interface ${iface.name}: hardware address ${iface.mac_address} is not an Ethernet MAC, skipped` });
      continue;
    }
    const mac = iface.mac_address.toLowerCase();
    const ipv6 = iface.ipv6_address?.split('%')[0] ?? iface.ipv6_address;
    all[iface.name] = { ...iface, mac_address: mac, ipv6_address: ipv6 ?? null, pxe_enabled: mac === pxeMac };
  }
  const empty = { all, valid: {} };
  if (Object.keys(all).length === 0) return { ...empty, notes, failure: 'Inventory is invalid: no valid network interfaces' };

  const mode = config.add_ports;
  if (!pxeMac && mode === 'pxe') notes.push({ level: 'warning', message: 'no boot interface in the inventory; adding the ports of interfaces with IP addresses' });
  const candidates = Object.entries(all).filter(([name, iface]) => {
    const ip = ipOf(iface);
    return name !== 'lo' && !(ip && isLoopback(ip));
  });
  let selected = candidates.filter(([, iface]) => {
    if (mode === 'pxe' && pxeMac) return iface.pxe_enabled;
    if (mode === 'active' || (mode === 'pxe' && !pxeMac)) return ipOf(iface) !== null;
    return true;
  });
  if (selected.length === 0 && mode === 'pxe' && !pxeMac) selected = candidates;
  if (selected.length === 0) {
    return { ...empty, notes, failure: `Inventory is invalid: no network interfaces match the configuration (add_ports set to "${mode}")` };
  }
  return { all, valid: Object.fromEntries(selected), notes };
}

/** `validate-interfaces`: see {@link checkInterfaces}; runs in the preprocess phase, before any change. */
export const validateInterfacesHook: InspectionHook = {
  name: 'validate-interfaces',
  preprocess({ payload, config }) {
    const { all, valid, notes, failure } = checkInterfaces(payload, config);
    if (failure) return { failure, notes };
    return {
      notes,
      pluginData: { all_interfaces: all, valid_interfaces: valid, macs: Object.values(valid).map((i) => i.mac_address) },
    };
  },
};
