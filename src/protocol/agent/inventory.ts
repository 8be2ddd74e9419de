/**
 * The hardware inventory the agent reports, in the schema of ironic-python-agent's hardware managers
 * (`ironic:doc/source/admin/inspection/data.rst`), so that Ironic's inspection, the legacy inspector and
 * Ingot read the same document. Sizes are bytes, speeds Mbit/s; unknown values are null. The interfaces
 * describe what Ingot's agent sends; {@link InspectionPayloadBody} is what the server accepts.
 */
import * as Type from 'typebox/type';

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

/** Bounds on the payload; a real machine is far below each. */
export const PAYLOAD_LIMITS = {
  interfaces: 1024,
  disks: 4096,
  cpuFlags: 4096,
  pciDevices: 65536,
  usbDevices: 4096,
  lldpTlvsPerInterface: 1024,
  /** An LLDP TLV value is at most 511 octets (802.1AB), so 1022 hex digits. */
  lldpHexChars: 1022,
  /** Free-form strings (names, models, serials). */
  stringChars: 4096,
  /** Collector logs (base64 tarball). */
  logsChars: 64 * 1024 * 1024,
  /** extra-hardware facts. */
  dataRecords: 100_000,
  cpuCount: 1_000_000,
} as const;

const S = (max: number = PAYLOAD_LIMITS.stringChars) => Type.String({ maxLength: max });
const NullableS = () => Type.Union([S(), Type.Null()]);
const Bytes = () => Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
const Tlv = Type.Tuple([Type.Integer({ minimum: 0, maximum: 65535 }), Type.String({ maxLength: PAYLOAD_LIMITS.lldpHexChars })]);
const Tlvs = Type.Array(Tlv, { maxItems: PAYLOAD_LIMITS.lldpTlvsPerInterface });
const PciDevice = Type.Object({ vendor_id: S(16), product_id: S(16) });

const Disk = Type.Object({
  name: Type.String({ minLength: 1, maxLength: PAYLOAD_LIMITS.stringChars }),
  size: Bytes(),
  model: Type.Optional(NullableS()),
  rotational: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  wwn: Type.Optional(NullableS()),
  serial: Type.Optional(NullableS()),
  vendor: Type.Optional(NullableS()),
  wwn_with_extension: Type.Optional(NullableS()),
  wwn_vendor_extension: Type.Optional(NullableS()),
  hctl: Type.Optional(NullableS()),
  by_path: Type.Optional(NullableS()),
});

const Interface = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 256 }),
  mac_address: Type.String({ maxLength: 64 }),
  ipv4_address: Type.Optional(Type.Union([S(64), Type.Null()])),
  ipv6_address: Type.Optional(Type.Union([S(128), Type.Null()])),
  has_carrier: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  lldp: Type.Optional(Type.Union([Tlvs, Type.Null()])),
  vendor: Type.Optional(NullableS()),
  product: Type.Optional(NullableS()),
  biosdevname: Type.Optional(NullableS()),
  client_id: Type.Optional(NullableS()),
  speed_mbps: Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.Null()])),
});

const InventorySchema = Type.Object({
  cpu: Type.Object({
    model_name: Type.Optional(NullableS()),
    frequency: Type.Optional(Type.Union([S(64), Type.Number({ minimum: 0 }), Type.Null()])),
    count: Type.Integer({ minimum: 0, maximum: PAYLOAD_LIMITS.cpuCount }),
    architecture: Type.String({ maxLength: 64 }),
    flags: Type.Optional(Type.Array(S(256), { maxItems: PAYLOAD_LIMITS.cpuFlags })),
    socket_count: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 65536 }), Type.Null()])),
  }),
  memory: Type.Object({
    total: Type.Optional(Type.Union([Bytes(), Type.Null()])),
    physical_mb: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 2 ** 40 }), Type.Null()])),
  }),
  disks: Type.Array(Disk, { maxItems: PAYLOAD_LIMITS.disks }),
  interfaces: Type.Array(Interface, { maxItems: PAYLOAD_LIMITS.interfaces }),
  bmc_address: Type.Optional(Type.Union([S(64), Type.Null()])),
  bmc_v6address: Type.Optional(Type.Union([S(128), Type.Null()])),
  bmc_mac: Type.Optional(Type.Union([S(64), Type.Null()])),
  system_vendor: Type.Optional(Type.Object({
    manufacturer: Type.Optional(NullableS()),
    product_name: Type.Optional(NullableS()),
    serial_number: Type.Optional(NullableS()),
  })),
  boot: Type.Optional(Type.Object({
    current_boot_mode: Type.Optional(Type.Union([S(16), Type.Null()])),
    pxe_interface: Type.Optional(Type.Union([S(64), Type.Null()])),
  })),
  hostname: Type.Optional(Type.Union([S(256), Type.Null()])),
  lldp_raw: Type.Optional(Type.Union([Type.Record(Type.String({ maxLength: 256 }), Tlvs), Type.Null()])),
  pci_devices: Type.Optional(Type.Array(PciDevice, { maxItems: PAYLOAD_LIMITS.pciDevices })),
  usb_devices: Type.Optional(Type.Array(Type.Object({}), { maxItems: PAYLOAD_LIMITS.usbDevices })),
});

/**
 * The body of `POST /v1/continue_inspection` and the legacy `POST /v1/continue` as the server accepts it:
 * what real ironic-python-agent releases send (optional and null fields, extra keys) as well as Ingot's
 * agent, every list and number bounded by {@link PAYLOAD_LIMITS}. The server also checks the MAC addresses
 * and the interface names (`inspection/validate.ts`).
 */
export const InspectionPayloadBody = Type.Object({
  inventory: InventorySchema,
  boot_interface: Type.Optional(Type.Union([S(64), Type.Null()])),
  root_disk: Type.Optional(Type.Union([Disk, Type.Null()])),
  error: Type.Optional(Type.Union([S(64 * 1024), Type.Null()])),
  collector_errors: Type.Optional(Type.Union([Type.Record(Type.String(), S(64 * 1024)), Type.Null()])),
  logs: Type.Optional(Type.Union([S(PAYLOAD_LIMITS.logsChars), Type.Null()])),
  data: Type.Optional(Type.Array(Type.Array(Type.Unknown(), { maxItems: 8 }), { maxItems: PAYLOAD_LIMITS.dataRecords })),
  pci_devices: Type.Optional(Type.Array(PciDevice, { maxItems: PAYLOAD_LIMITS.pciDevices })),
  lldp_raw: Type.Optional(Type.Union([Type.Record(Type.String({ maxLength: 256 }), Tlvs), Type.Null()])),
});

/** `POST /v1/continue_inspection` query (1.84): the node, when the agent knows it. */
export const ContinueInspectionQuery = Type.Object({ node_uuid: Type.Optional(Type.String()) });
