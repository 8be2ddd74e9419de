import type { InventoryPciDevice } from '../../protocol/agent/inventory.js';
import { updateCapabilities } from '../capabilities.js';
import type { InspectionHook } from './types.js';

/**
 * `pci-devices`: counts the PCI devices that match a configured alias (`pci_aliases`:
 * `{vendor_id, product_id, name}`) and sets capability `<name>:<count>` for each alias found (Ironic's
 * PciDevicesHook). Devices come from plugin data `pci_devices` (IPA's pci-devices collector), else
 * `inventory.pci_devices`. IDs compare case-insensitively.
 */
export const pciDevicesHook: InspectionHook = {
  name: 'pci-devices',
  run({ payload, node, config, pluginData }) {
    const devices = (pluginData.pci_devices as InventoryPciDevice[] | undefined) ?? payload.inventory.pci_devices;
    if (!devices) {
      return config.pci_aliases.length > 0 ? { notes: [{ level: 'warning', message: 'no information about PCI devices was received from the ramdisk' }] } : {};
    }
    const aliases = new Map(config.pci_aliases.map((a) => [`${a.vendor_id.toLowerCase()}:${a.product_id.toLowerCase()}`, a.name]));
    const counts: Record<string, number> = {};
    for (const dev of devices) {
      const name = aliases.get(`${String(dev.vendor_id).toLowerCase()}:${String(dev.product_id).toLowerCase()}`);
      if (name) counts[name] = (counts[name] ?? 0) + 1;
    }
    if (Object.keys(counts).length === 0) return {};
    return {
      properties: { capabilities: updateCapabilities(node.properties.capabilities, counts) },
      notes: [{ level: 'info', message: `PCI devices found: ${Object.entries(counts).map(([k, v]) => `${k}=${v}`).join(', ')}` }],
    };
  },
};
