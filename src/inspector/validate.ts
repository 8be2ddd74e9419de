/**
 * Validation of what the agent posts to the inspection callback. The body is untrusted JSON: it is checked
 * against the inventory schema (`protocol/agent/inventory.ts`) with bounds on every list and number, and
 * the first problem is reported with its JSON path, e.g.
 * `inventory.interfaces[2].mac_address: "zz" is not a MAC address`. The result is a new, typed payload
 * with MAC addresses in lower case; the input is not modified.
 *
 * The schema accepts what real ironic-python-agent releases send (optional and null fields, extra keys)
 * so that a stock IPA ramdisk and Ingot's agent both pass.
 */
import { Type, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import type { InspectionPayload } from '../protocol/agent/inventory.js';
import { IngotError } from '../shared/errors.js';
import { HARDWARE_ADDRESS, macFromBootif, parseMac } from '../shared/mac.js';

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

/** The payload failed validation; `path` is the JSON path of the first problem (`''` for the root). */
export class InspectionDataError extends IngotError {
  readonly path: string;

  constructor(path: string, problem: string) {
    super('InvalidParameterValue', `${path || '(body)'}: ${problem}`);
    this.path = path;
  }
}

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

const PayloadSchema = Type.Object({
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

/** `/inventory/interfaces/2/mac_address` -> `inventory.interfaces[2].mac_address`. */
export function jsonPath(pointer: string): string {
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(key)) out += `[${key}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(key)) out += out ? `.${key}` : key;
    else out += `[${JSON.stringify(key)}]`;
  }
  return out;
}

function at(value: unknown, pointer: string): unknown {
  return pointer.split('/').slice(1).reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], value);
}

/** A short rendering of an offending value for messages. */
function show(value: unknown): string {
  if (value === undefined) return 'missing';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function schemaError(schema: TSchema, body: unknown): InspectionDataError {
  const errors = [...Value.Errors(schema, body)];
  // A list over its bound is reported as such, not by the first bad item inside it.
  const chosen = errors.find((e) => e.keyword === 'maxItems') ?? errors.find((e) => e.keyword !== 'anyOf') ?? errors[0];
  if (!chosen) return new InspectionDataError('', 'does not match the inspection payload schema');
  if (chosen.keyword === 'required') {
    const missing = (chosen.params as { requiredProperties?: string[] }).requiredProperties ?? [];
    const first = missing.find((k) => (at(body, chosen.instancePath) as Record<string, unknown> | null)?.[k] === undefined) ?? missing[0] ?? '?';
    return new InspectionDataError(jsonPath(`${chosen.instancePath}/${first}`), 'is required');
  }
  const value = at(body, chosen.instancePath);
  if (chosen.keyword === 'maxItems' && Array.isArray(value)) {
    return new InspectionDataError(jsonPath(chosen.instancePath), `has ${value.length} entries, more than the limit of ${(chosen.params as { limit?: number }).limit}`);
  }
  return new InspectionDataError(jsonPath(chosen.instancePath), `${show(value)} is not valid (${chosen.message})`);
}

/**
 * Validates a posted inspection payload and returns it typed, with MAC addresses normalised to lower
 * case (interfaces, `bmc_mac`) and the boot NIC (`boot.pxe_interface`, `boot_interface`) as a plain
 * lower-case MAC even when the agent sent pxelinux form (`01-aa-bb-…`). LLDP TLV values are only
 * bounded here; a value that is not hex is skipped with a warning by the LLDP hooks, as Ironic does.
 * @throws InspectionDataError (code InvalidParameterValue) naming the JSON path of the first problem.
 */
export function validateInspectionPayload(body: unknown): InspectionPayload {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InspectionDataError('', `expected a JSON object, got ${Array.isArray(body) ? 'an array' : show(body)}`);
  }
  if (!Value.Check(PayloadSchema, body)) throw schemaError(PayloadSchema, body);

  const payload = structuredClone(body) as unknown as InspectionPayload;
  const seen = new Map<string, number>();
  payload.inventory.interfaces.forEach((iface, i) => {
    const where = `inventory.interfaces[${i}]`;
    const mac = parseMac(iface.mac_address, HARDWARE_ADDRESS);
    if (mac === null) throw new InspectionDataError(`${where}.mac_address`, `${show(iface.mac_address)} is not a MAC address`);
    iface.mac_address = mac;
    const dup = seen.get(iface.name);
    if (dup !== undefined) throw new InspectionDataError(`${where}.name`, `${show(iface.name)} is already used by inventory.interfaces[${dup}]`);
    seen.set(iface.name, i);
  });
  const boot = payload.inventory.boot;
  if (boot?.pxe_interface) {
    const mac = macFromBootif(boot.pxe_interface);
    if (mac === null) throw new InspectionDataError('inventory.boot.pxe_interface', `${show(boot.pxe_interface)} is not a MAC address`);
    boot.pxe_interface = mac;
  }
  if (payload.boot_interface) {
    const mac = macFromBootif(payload.boot_interface);
    if (mac === null) throw new InspectionDataError('boot_interface', `${show(payload.boot_interface)} is not a MAC address`);
    payload.boot_interface = mac;
  }
  if (payload.inventory.bmc_mac) {
    const mac = parseMac(payload.inventory.bmc_mac, HARDWARE_ADDRESS);
    if (mac === null) throw new InspectionDataError('inventory.bmc_mac', `${show(payload.inventory.bmc_mac)} is not a MAC address`);
    payload.inventory.bmc_mac = mac;
  }
  return payload;
}
