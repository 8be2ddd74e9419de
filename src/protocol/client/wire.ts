/**
 * The shapes of Ironic REST API v1 messages as a client sees them: what `ingot node …` and
 * `ingot port …` send and read. Objects are open (`[key: string]: unknown`) because the fields a
 * server returns depend on the requested microversion and on `fields=`; the named members are the
 * ones clients rely on.
 */

/** Free-form JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A link object carried by every resource (`self`, `bookmark`). */
export interface WireLink {
  href: string;
  rel: string;
}

/** A node as returned by `GET /v1/nodes/{ident}` (subset of fields named). */
export interface WireNode {
  uuid: string;
  name?: string | null;
  driver?: string;
  provision_state?: string;
  target_provision_state?: string | null;
  power_state?: string | null;
  target_power_state?: string | null;
  maintenance?: boolean;
  last_error?: string | null;
  instance_uuid?: string | null;
  links?: WireLink[];
  [key: string]: unknown;
}

/** A port as returned by `GET /v1/ports/{uuid}`. */
export interface WirePort {
  uuid: string;
  address?: string;
  node_uuid?: string;
  [key: string]: unknown;
}

/** One entry of `GET /v1/nodes/{ident}/history`. Ingot adds the time spent in the phase that ended. */
export interface WireHistoryEvent {
  uuid: string;
  created_at?: string;
  severity?: string;
  event?: string;
  event_type?: string;
  conductor?: string | null;
  user?: string | null;
  /** Ingot: seconds spent in the previous phase (number) when known. */
  duration?: number | string | null;
  /** Ingot (alternative spelling): milliseconds spent in the previous phase. */
  duration_ms?: number | null;
  [key: string]: unknown;
}

/** One JSON Patch (RFC 6902) operation, as sent in `PATCH /v1/nodes/{ident}` and `/v1/ports/{uuid}`. */
export type JsonPatchOp =
  | { op: 'add' | 'replace'; path: string; value: JsonValue }
  | { op: 'remove'; path: string };

/** Body of `PUT /v1/nodes/{ident}/states/provision`. */
export interface WireProvisionRequest {
  target: string;
  configdrive?: JsonValue;
  clean_steps?: JsonValue;
  deploy_steps?: JsonValue;
  service_steps?: JsonValue;
  rescue_password?: string;
  disable_ramdisk?: boolean;
}

/** Body of `PUT /v1/nodes/{ident}/states/power`. */
export interface WirePowerRequest {
  target: 'power on' | 'power off' | 'rebooting' | 'soft power off' | 'soft rebooting';
  timeout?: number;
}

/** Body of `PUT /v1/nodes/{ident}/management/boot_device` and answer of its GET. */
export interface WireBootDevice {
  boot_device: string | null;
  persistent: boolean | null;
}

/** Answer of `GET /v1/nodes/{ident}/management/boot_device/supported`. */
export interface WireSupportedBootDevices {
  supported_boot_devices: string[];
}

/** Answer of `GET /v1/nodes/{ident}/validate`: one entry per interface. */
export type WireValidation = Record<string, { result: boolean | null; reason?: string | null }>;

/** The fault inside an error envelope's `error_message` (a JSON string, or an object from some servers). */
export interface WireFault {
  faultcode?: 'Client' | 'Server' | string;
  faultstring?: string;
  debuginfo?: unknown;
}

/** Request header selecting the microversion. */
export const API_VERSION_HEADER = 'X-OpenStack-Ironic-API-Version';

/** The per-node driver interfaces; `<name>_interface` is a node field for each. */
export const NODE_INTERFACES = [
  'bios', 'boot', 'console', 'deploy', 'firmware', 'inspect', 'management', 'network', 'power', 'raid',
  'rescue', 'storage', 'vendor',
] as const;
