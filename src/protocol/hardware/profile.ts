/**
 * A hardware profile: what a simulated machine is made of. The BMC emulators answer out-of-band
 * inspection from it (Redfish Systems/Processors/Memory/Storage/EthernetInterfaces) and the agent in
 * simulation mode reports it as its inventory, so both views of one machine agree.
 */
export interface HardwareProfile {
  /** System vendor as DMI reports it (e.g. "Ingot Simulated"). */
  manufacturer: string;
  /** Product name. */
  model: string;
  /** Chassis serial number. */
  serial_number: string;
  /** SMBIOS system UUID (lower case). */
  system_uuid: string;
  cpu: { count: number; model_name: string; frequency_mhz: number; architecture: 'x86_64' | 'aarch64'; flags: string[] };
  memory_mib: number;
  disks: DiskProfile[];
  nics: NicProfile[];
  boot_mode: 'uefi' | 'bios';
}

export interface DiskProfile {
  /** Device name as the agent sees it (e.g. /dev/sda). */
  name: string;
  size_bytes: number;
  model: string;
  vendor: string;
  serial: string;
  rotational: boolean;
  /** World wide name, when the disk has one. */
  wwn: string | null;
}

export interface NicProfile {
  /** Interface name (e.g. eth0). */
  name: string;
  /** MAC address, lower case, colon separated. */
  mac: string;
  speed_mbps: number;
  /** True for the NIC the machine network-boots from. */
  pxe_enabled: boolean;
  /** The switch port the NIC is cabled to, as its LLDP announcements would say (absent: no LLDP heard). */
  switch_port?: SwitchPort;
}

/** A switch port seen over LLDP. */
export interface SwitchPort {
  /** The switch's chassis MAC address (LLDP Chassis ID, subtype MAC address). */
  switch_id: string;
  /** The port's interface name (LLDP Port ID, subtype interface name), e.g. `Ethernet1/7`. */
  port_id: string;
  /** The switch's system name (LLDP System Name). */
  switch_name: string;
}
