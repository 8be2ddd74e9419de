/** The `pci-devices` collector: vendor/product/class/revision of every PCI function, from sysfs. */
import type { InventoryPciDevice } from '../../protocol/agent/inventory.js';
import type { AgentSystem } from '../system.js';
import type { Collector } from './collector.js';

const PCI = '/sys/bus/pci/devices';

/** Lists PCI devices in IPA's form (hex without 0x: vendor_id "8086", class "020000"). */
export async function readPciDevices(system: AgentSystem): Promise<InventoryPciDevice[]> {
  const buses = await system.list(PCI);
  if (buses === null) throw new Error(`${PCI} unreadable (no PCI bus, or /sys not mounted)`);
  const hex = async (bus: string, f: string) => (await system.readText(`${PCI}/${bus}/${f}`))?.trim().replace(/^0x/i, '') ?? null;
  const out: InventoryPciDevice[] = [];
  for (const bus of buses) {
    const [vendor, product, cls, revision] = await Promise.all(['vendor', 'device', 'class', 'revision'].map((f) => hex(bus, f)));
    if (!vendor || !product) continue;
    const dev: InventoryPciDevice = { vendor_id: vendor, product_id: product, bus };
    if (cls) dev.class = cls;
    if (revision) dev.revision = revision;
    out.push(dev);
  }
  return out;
}

export const collectPciDevices: Collector = async (payload, { system }) => {
  payload.pci_devices = await readPciDevices(system);
};
