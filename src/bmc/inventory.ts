/**
 * The inventory `ingot bmc --inventory FILE` writes: per machine, what an operator (or a test) needs to
 * enroll it in Ingot — BMC addresses, credentials, MACs and the file backing its disk.
 */
export interface InventoryEntry {
  name: string;
  /** Base URL of the Redfish service, e.g. `http://127.0.0.1:8000`. */
  redfish_address: string;
  /** Path of the machine's ComputerSystem, e.g. `/redfish/v1/Systems/sim-0`. */
  redfish_system_id: string;
  ipmi_address: string;
  ipmi_port: number;
  username: string;
  password: string;
  /** MAC addresses, the network-boot NIC first. */
  macs: string[];
  /** The file that backs the machine's (first) disk. */
  disk: string;
  /** QEMU machines: the file their serial console is captured into (every boot appends to it). */
  console_log?: string;
}

/** `driver_info` enrolling `entry` with the `redfish` or the `ipmi` hardware type (and its console log, when captured). */
export function driverInfoFor(entry: InventoryEntry, driver: 'redfish' | 'ipmi'): Record<string, string | number> {
  const console: Record<string, string> = entry.console_log ? { console_log_file: entry.console_log } : {};
  if (driver === 'redfish') {
    return {
      redfish_address: entry.redfish_address,
      redfish_system_id: entry.redfish_system_id,
      redfish_username: entry.username,
      redfish_password: entry.password,
      ...console,
    };
  }
  return { ipmi_address: entry.ipmi_address, ipmi_port: entry.ipmi_port, ipmi_username: entry.username, ipmi_password: entry.password, ...console };
}
