/**
 * The `extra-hardware` collector: facts as python-hardware's [category, item, key, value] tuples in
 * `payload.data`, the shape Ironic's extra-hardware hook converts. A small subset: CPU, memory, disks,
 * NICs and system identity. Disk sizes are in GB (10^9), as python-hardware reports them.
 */
import type { Collector } from './collector.js';

type Fact = [string, string, string, string];

export const collectExtraHardware: Collector = async (payload, { inventory, system }) => {
  const facts: Fact[] = [];
  const { cpu, memory, disks, interfaces, system_vendor: sv } = inventory;
  if (cpu.socket_count != null) facts.push(['cpu', 'physical', 'number', String(cpu.socket_count)]);
  facts.push(['cpu', 'logical', 'number', String(cpu.count)]);
  if (cpu.model_name) facts.push(['cpu', 'physical_0', 'product', cpu.model_name]);
  facts.push(['memory', 'total', 'size', String(memory.total)]);
  const numa = await system.readText('/sys/devices/system/node/online');
  if (numa) facts.push(['numa', 'nodes', 'online', numa.trim()]);
  for (const d of disks) {
    const name = d.name.replace(/^\/dev\//, '');
    facts.push(['disk', name, 'size', String(Math.floor(d.size / 1e9))]);
    facts.push(['disk', name, 'rotational', d.rotational ? '1' : '0']);
    if (d.model) facts.push(['disk', name, 'model', d.model]);
    if (d.vendor) facts.push(['disk', name, 'vendor', d.vendor]);
    if (d.serial) facts.push(['disk', name, 'serial', d.serial]);
  }
  for (const n of interfaces) {
    facts.push(['network', n.name, 'serial', n.mac_address]);
    facts.push(['network', n.name, 'link', n.has_carrier ? 'yes' : 'no']);
    if (n.speed_mbps) facts.push(['network', n.name, 'speed', `${n.speed_mbps}Mbps`]);
    if (n.ipv4_address) facts.push(['network', n.name, 'ipv4', n.ipv4_address]);
  }
  if (sv.manufacturer) facts.push(['system', 'product', 'vendor', sv.manufacturer]);
  if (sv.product_name) facts.push(['system', 'product', 'name', sv.product_name]);
  if (sv.serial_number) facts.push(['system', 'product', 'serial', sv.serial_number]);
  payload.data = facts;
};
