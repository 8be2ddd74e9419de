/**
 * Request bodies of the Ironic REST API v1 as JSON Schemas (TypeBox), each with its `Static` type:
 * what `POST`/`PUT` accept per resource and per action. Field names, types and nullability are Ironic's
 * (`ironic/api/controllers/v1/node.py`, `port.py`, `portgroup.py`, `chassis.py`); booleans also accept
 * their string spellings as Ironic does (`boolish`, read by `shared/strict-bool.ts`). Which fields a given
 * microversion accepts is decided by the server, not here. The API checks them with `api/validate.ts`.
 */
import type { Static } from 'typebox';
import * as Type from 'typebox/type';
import { boolish, jsonObject, nullable, optionalString as str, stringEnum } from '../schema-kit.js';

const dict = () => Type.Optional(nullable(jsonObject()));

/** The `<x>_interface` fields of a node. */
const interfaceFields = {
  bios_interface: str(),
  boot_interface: str(),
  console_interface: str(),
  deploy_interface: str(),
  firmware_interface: str(),
  inspect_interface: str(),
  management_interface: str(),
  network_interface: str(),
  power_interface: str(),
  raid_interface: str(),
  rescue_interface: str(),
  storage_interface: str(),
  vendor_interface: str(),
};

/** `POST /v1/nodes`. */
export const NodeCreateBody = Type.Object(
  {
    ...interfaceFields,
    automated_clean: boolish(),
    boot_mode: str(),
    chassis_uuid: str(),
    conductor_group: str(),
    console_enabled: boolish(),
    disable_power_off: boolish(),
    description: Type.Optional(nullable(Type.String({ maxLength: 4096 }))),
    driver: Type.String(),
    driver_info: dict(),
    extra: dict(),
    instance_info: dict(),
    instance_uuid: str(),
    lessee: str(),
    maintenance: boolish(),
    name: str(),
    network_data: dict(),
    owner: str(),
    parent_node: str(),
    properties: dict(),
    resource_class: Type.Optional(nullable(Type.String({ maxLength: 80 }))),
    retired: boolish(),
    retired_reason: str(),
    secure_boot: boolish(),
    shard: str(),
    uuid: str(),
  },
  { additionalProperties: false },
);
export type NodeCreateBody = Static<typeof NodeCreateBody>;

/** The node as a JSON Patch applies to it: the create fields plus those only an update may set. */
export const NodePatchedBody = Type.Object(
  {
    ...NodeCreateBody.properties,
    protected: boolish(),
    protected_reason: str(),
    maintenance_reason: str(),
  },
  { additionalProperties: true },
);

/** `POST /v1/ports`. */
export const PortCreateBody = Type.Object(
  {
    address: Type.String(),
    node_uuid: Type.String(),
    portgroup_uuid: str(),
    extra: dict(),
    local_link_connection: dict(),
    pxe_enabled: boolish(),
    physical_network: str(),
    is_smartnic: boolish(),
    name: str(),
    uuid: str(),
  },
  { additionalProperties: false },
);

/**
 * `POST /v1/ports` as the server reads it: the create fields plus `node_ident` (a node UUID or name,
 * 1.94). Exactly one of `node_ident` and `node_uuid` is given (Ironic's `oneOf`, checked by the API);
 * `node_uuid` stays a UUID at every version.
 */
export const PortPostBody = Type.Object(
  { ...PortCreateBody.properties, node_uuid: Type.Optional(Type.String()), node_ident: Type.Optional(Type.String()) },
  { additionalProperties: false },
);
export type PortPostBody = Static<typeof PortPostBody>;

/** `POST /v1/portgroups`. */
export const PortgroupCreateBody = Type.Object(
  {
    address: str(),
    node_uuid: Type.String(),
    name: str(),
    extra: dict(),
    mode: str(),
    properties: dict(),
    standalone_ports_supported: boolish(),
    uuid: str(),
  },
  { additionalProperties: false },
);
export type PortgroupCreateBody = Static<typeof PortgroupCreateBody>;

/** `POST /v1/chassis`. */
export const ChassisCreateBody = Type.Object(
  {
    description: Type.Optional(nullable(Type.String({ maxLength: 255 }))),
    extra: dict(),
    uuid: str(),
  },
  { additionalProperties: false },
);
export type ChassisCreateBody = Static<typeof ChassisCreateBody>;

/** `PUT /v1/nodes/{node}/states/power`. */
export const PowerBody = Type.Object(
  { target: Type.String(), timeout: Type.Optional(nullable(Type.Integer())) },
  { additionalProperties: false },
);
export type PowerBody = Static<typeof PowerBody>;

/**
 * `PUT /v1/nodes/{node}/states/provision`. The step lists are lists here (Ironic's `args.types(list)`);
 * each step is checked against the step schemas of `steps.ts` once the verb is known.
 */
export const ProvisionBody = Type.Object(
  {
    target: Type.String(),
    configdrive: Type.Optional(Type.Union([Type.String(), jsonObject(), Type.Null()])),
    clean_steps: Type.Optional(nullable(Type.Array(Type.Unknown()))),
    deploy_steps: Type.Optional(nullable(Type.Array(Type.Unknown()))),
    service_steps: Type.Optional(nullable(Type.Array(Type.Unknown()))),
    rescue_password: str(),
    disable_ramdisk: boolish(),
    runbook: str(),
  },
  { additionalProperties: false },
);
export type ProvisionBody = Static<typeof ProvisionBody>;

/** `PUT /v1/nodes/{node}/states/raid` (1.12): the target RAID configuration, checked by the conductor. */
export const TargetRaidBody = Type.Object(
  { logical_disks: Type.Optional(Type.Array(jsonObject())) },
  { additionalProperties: true },
);

/** `PUT /v1/nodes/{node}/states/console`. */
export const ConsoleBody = Type.Object({ enabled: Type.Union([Type.Boolean(), Type.String()]) }, { additionalProperties: false });

/** `PUT /v1/nodes/{node}/states/boot_mode` (1.76). */
export const BootModeBody = Type.Object({ target: Type.String() }, { additionalProperties: false });

/** `PUT /v1/nodes/{node}/states/secure_boot` (1.76): a boolean, or its string spellings as Ironic accepts them. */
export const SecureBootBody = Type.Object({ target: Type.Union([Type.Boolean(), Type.String()]) }, { additionalProperties: false });

/** `PUT /v1/nodes/{node}/management/boot_device`. */
export const BootDeviceBody = Type.Object(
  { boot_device: Type.String(), persistent: boolish() },
  { additionalProperties: false },
);

/** `PUT /v1/nodes/{node}/management/inject_nmi` (1.29): no parameters (clients send `{}` or nothing). */
export const InjectNmiBody = Type.Object({}, { additionalProperties: false });

/** `PUT /v1/nodes/{node}/maintenance`: the reason may also come as a query parameter. */
export const MaintenanceBody = Type.Object({ reason: str() }, { additionalProperties: false });

/** `PUT /v1/nodes/{node}/traits` (1.37). */
export const TraitsBody = Type.Object({ traits: Type.Array(Type.String()) }, { additionalProperties: false });

/** Virtual media device types in Ironic's order (`boot_devices.VMEDIA_DEVICES`; its messages list them so). */
export const VMEDIA_DEVICE_TYPES = ['disk', 'cdrom', 'floppy'] as const;
/** Where the BMC fetches an attached image from; Ironic's default is `local`. */
export const IMAGE_DOWNLOAD_SOURCES = ['http', 'local', 'swift'] as const;

/** `POST /v1/nodes/{node}/vmedia` (1.89): Ironic's `VMEDIA_ATTACH_VALIDATOR`, checked as Ironic's jsonschema does. */
export const VmediaAttachBody = Type.Object(
  {
    device_type: stringEnum(VMEDIA_DEVICE_TYPES),
    image_url: Type.String(),
    image_download_source: Type.Optional(stringEnum(IMAGE_DOWNLOAD_SOURCES)),
  },
  { additionalProperties: false },
);
export type VmediaAttachBody = Static<typeof VmediaAttachBody>;

/** The operations a JSON Patch (RFC 6902) may use on Ironic's resources. */
export const PATCH_OPS = ['add', 'replace', 'remove'] as const;
/** A patch path: a JSON pointer of word characters and dashes (`/driver_info/ipmi_address`). */
export const PATCH_PATH = '^(/[\\w-]+)+$';

/**
 * `PATCH` of a node, port, port group, chassis or inspection rule: Ironic's `args.patch` schema. The API
 * checks it with its own messages (`api/patch.ts` `parsePatch`), and that `add` and `replace` carry a value.
 * NOTE: Ironic's schema refuses other keys in an operation (`from`); Ingot ignores them.
 */
export const PatchBody = Type.Array(
  Type.Object({ path: Type.String({ pattern: PATCH_PATH }), op: stringEnum(PATCH_OPS), value: Type.Optional(Type.Unknown()) }),
);
/** One operation of a {@link PatchBody}. */
export type PatchOperation = Static<typeof PatchBody>[number];
