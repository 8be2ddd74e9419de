/**
 * The hardware inventory the agent reports, in the schema of ironic-python-agent's hardware managers
 * (`ironic:doc/source/admin/inspection/data.rst`), so that Ironic's inspection, the legacy inspector and
 * Ingot read the same document. Sizes are bytes, speeds Mbit/s; unknown values are null.
 */
export interface Inventory {
  cpu: InventoryCpu;
  memory: { total: number; physical_mb: number | null };
  disks: InventoryDisk[];
  interfaces: InventoryInterface[];
  /** IPv4 address of the BMC as the machine sees it (IPMI LAN configuration), or null / "0.0.0.0". */
  bmc_address: string | null;
  bmc_v6address: string | null;
  /** MAC address of the BMC, when the agent could read it. */
  bmc_mac?: string | null;
  system_vendor: { manufacturer: string; product_name: string; serial_number: string; firmware?: { vendor: string; version: string; build_date: string } };
  boot: { current_boot_mode: 'uefi' | 'bios'; pxe_interface: string | null };
  hostname: string;
  /** Raw LLDP TLVs per interface name: [type, hex value] pairs. */
  lldp_raw?: Record<string, [number, string][]>;
  pci_devices?: InventoryPciDevice[];
  usb_devices?: { product: string; vendor: string; handle: string }[];
}

export interface InventoryCpu {
  model_name: string | null;
  /** MHz, as text (IPA reports it so). */
  frequency: string | null;
  count: number;
  architecture: string;
  flags: string[];
  socket_count?: number | null;
}

export interface InventoryDisk {
  /** Device path, e.g. /dev/sda. */
  name: string;
  model: string | null;
  size: number;
  rotational: boolean;
  wwn: string | null;
  serial: string | null;
  vendor: string | null;
  wwn_with_extension: string | null;
  wwn_vendor_extension: string | null;
  hctl: string | null;
  by_path: string | null;
  uuid?: string | null;
}

export interface InventoryInterface {
  name: string;
  mac_address: string;
  ipv4_address: string | null;
  ipv6_address?: string | null;
  has_carrier: boolean;
  /** Parsed LLDP as IPA sends it: [type, hex value] pairs, or null. */
  lldp: [number, string][] | null;
  vendor: string | null;
  product: string | null;
  biosdevname: string | null;
  client_id?: string | null;
  speed_mbps?: number | null;
}

export interface InventoryPciDevice {
  vendor_id: string;
  product_id: string;
  class?: string;
  revision?: string;
  bus?: string;
}

/**
 * What the agent posts to `POST /v1/continue_inspection` (and the legacy `POST /v1/continue`): the
 * inventory plus plugin data from the collectors. `error` is set when the ramdisk failed; a collector
 * that failed is reported in `collector_errors`, the rest still arrives.
 */
export interface InspectionPayload {
  inventory: Inventory;
  /** The MAC address the machine booted from (IPA `boot_interface`). */
  boot_interface?: string | null;
  /** The disk the agent would pick as root device. */
  root_disk?: InventoryDisk | null;
  error?: string | null;
  /** Collector name -> error message, for collectors that failed. */
  collector_errors?: Record<string, string>;
  configuration?: { collectors: string[]; managers: { name: string; version: string }[] };
  /** base64 of a gzipped tar of system logs (the `logs` collector). */
  logs?: string;
  /** Extra hardware facts (the `extra-hardware` collector): [category, item, key, value] tuples. */
  data?: [string, string, string, string][];
  pci_devices?: InventoryPciDevice[];
  numa_topology?: unknown;
  [plugin: string]: unknown;
}
