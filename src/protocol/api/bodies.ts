/**
 * Request bodies of the Ironic REST API v1 as JSON Schemas (TypeBox): what `POST`/`PUT` accept per
 * resource. Field names, types and nullability are Ironic's (`ironic/api/controllers/v1/node.py`,
 * `port.py`, `portgroup.py`, `chassis.py`); booleans also accept their string spellings as Ironic
 * does. Which fields a given microversion accepts is decided by the server, not here.
 */
import { Type, type TSchema } from 'typebox';

const nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const str = () => Type.Optional(nullable(Type.String()));
const dict = () => Type.Optional(nullable(Type.Object({})));
const boolish = () => Type.Optional(Type.Union([Type.Boolean(), Type.String(), Type.Null()]));

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

/** `POST /v1/chassis`. */
export const ChassisCreateBody = Type.Object(
  {
    description: Type.Optional(nullable(Type.String({ maxLength: 255 }))),
    extra: dict(),
    uuid: str(),
  },
  { additionalProperties: false },
);

/** `PUT /v1/nodes/{node}/states/power`. */
export const PowerBody = Type.Object(
  { target: Type.String(), timeout: Type.Optional(nullable(Type.Integer())) },
  { additionalProperties: false },
);

/** `PUT /v1/nodes/{node}/states/provision`. */
export const ProvisionBody = Type.Object(
  {
    target: Type.String(),
    configdrive: Type.Optional(Type.Union([Type.String(), Type.Object({}), Type.Null()])),
    clean_steps: Type.Optional(nullable(Type.Array(Type.Object({})))),
    deploy_steps: Type.Optional(nullable(Type.Array(Type.Object({})))),
    service_steps: Type.Optional(nullable(Type.Array(Type.Object({})))),
    rescue_password: str(),
    disable_ramdisk: boolish(),
    runbook: str(),
  },
  { additionalProperties: false },
);

/** `PUT /v1/nodes/{node}/states/console`. */
export const ConsoleBody = Type.Object({ enabled: Type.Union([Type.Boolean(), Type.String()]) }, { additionalProperties: false });

/** `PUT /v1/nodes/{node}/management/boot_device`. */
export const BootDeviceBody = Type.Object(
  { boot_device: Type.String(), persistent: boolish() },
  { additionalProperties: false },
);

/** `PUT /v1/nodes/{node}/maintenance`. */
export const MaintenanceBody = Type.Object({ reason: str() }, { additionalProperties: false });

/** `PUT /v1/nodes/{node}/traits`. */
export const TraitsBody = Type.Object({ traits: Type.Array(Type.String()) }, { additionalProperties: false });
