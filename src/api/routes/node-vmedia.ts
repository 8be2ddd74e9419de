/**
 * Virtual media of a node: `POST /v1/nodes/{node}/vmedia` attaches an image (1.89), `DELETE` detaches
 * some or all device types (1.89), both 204 once the conductor accepted the work (a failure of the work
 * lands in the node's last_error); `GET` lists the machine's devices (1.93, 200, a bare JSON array).
 * Rules as Ironic's `NodeVmediaController` (`VMEDIA_ATTACH_VALIDATOR`, `image_publisher.
 * VMEDIA_SUPPORTED_URL_SCHEMES`): before 1.89 the whole URL is not found, `GET` before 1.93 too.
 */
import type { FastifyInstance } from 'fastify';
import type { ImageDownloadSource, VmediaDeviceType } from '../../conductor/client.js';
import { fail } from '../../shared/errors.js';
import type { ApiDeps } from '../context.js';
import { getNode } from '../lookup.js';
import { requireUrlVersion } from '../microversion.js';
import type { Query } from '../query.js';

type IdParams = { Params: { node: string }; Querystring: Query };

/** Microversion that added `POST`/`DELETE …/vmedia`. */
export const VMEDIA_MINOR = 89;
/** Microversion that added `GET …/vmedia`. */
export const VMEDIA_GET_MINOR = 93;

/** Virtual media device types in Ironic's order (`boot_devices.VMEDIA_DEVICES`; its messages list them so). */
const VMEDIA_DEVICE_TYPES: readonly VmediaDeviceType[] = ['disk', 'cdrom', 'floppy'];
/** The image sources `image_download_source` names (Ironic's schema enum). */
const DOWNLOAD_SOURCES: readonly ImageDownloadSource[] = ['http', 'local', 'swift'];
/** URL schemes a BMC can fetch virtual media from (Ironic's `VMEDIA_SUPPORTED_URL_SCHEMES`). */
const URL_SCHEMES: readonly string[] = ['http', 'https', 'nfs', 'cifs', 'smb'];
const FIELDS = ['device_type', 'image_url', 'image_download_source'];

/** A value as Python prints it (`repr`), for messages worded as Ironic's jsonschema errors. */
function pyRepr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'string') return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  if (typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${pyRepr(k)}: ${pyRepr(x)}`).join(', ')}}`;
  return String(v);
}

/** InvalidParameterValue worded as Ironic's `args.schema` validator words a jsonschema error. */
function schemaError(error: string, keyword: string, where = ''): never {
  throw fail('InvalidParameterValue', `Schema error for vmedia: ${error}  Failed validating '${keyword}' in schema${where}`);
}

/** The attach request, checked against Ironic's `VMEDIA_ATTACH_VALIDATOR` schema. */
export function checkAttachBody(body: unknown): { device_type: VmediaDeviceType; image_url: string; image_download_source: ImageDownloadSource } {
  if (body === undefined) throw fail('MissingParameterValue', 'Missing argument: "vmedia"');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) schemaError(`${pyRepr(body)} is not of type 'object'`, 'type');
  const obj = body as Record<string, unknown>;
  for (const key of ['device_type', 'image_url']) {
    if (!(key in obj)) schemaError(`'${key}' is a required property`, 'required');
  }
  const extra = Object.keys(obj).filter((k) => !FIELDS.includes(k));
  if (extra.length > 0) schemaError(`Additional properties are not allowed (${extra.map(pyRepr).join(', ')} ${extra.length === 1 ? 'was' : 'were'} unexpected)`, 'additionalProperties');
  for (const key of FIELDS) {
    const v = obj[key];
    if (v === undefined) continue;
    const where = `['properties']['${key}']`;
    if (typeof v !== 'string') schemaError(`${pyRepr(v)} is not of type 'string'`, 'type', where);
    if (key === 'device_type' && !VMEDIA_DEVICE_TYPES.includes(v as VmediaDeviceType)) {
      schemaError(`${pyRepr(v)} is not one of ${pyRepr(VMEDIA_DEVICE_TYPES)}`, 'enum', where);
    }
    if (key === 'image_download_source' && !DOWNLOAD_SOURCES.includes(v as ImageDownloadSource)) {
      schemaError(`${pyRepr(v)} is not one of ${pyRepr(DOWNLOAD_SOURCES)}`, 'enum', where);
    }
  }
  const imageUrl = obj['image_url'] as string;
  // As Python's urlparse: the scheme is what precedes the first ':' when it is a valid scheme, lower-cased.
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(imageUrl)?.[1]?.toLowerCase() ?? '';
  if (!URL_SCHEMES.includes(scheme)) throw fail('InvalidParameterValue', `Unsupported or missing URL scheme: ${scheme}`);
  return {
    device_type: obj['device_type'] as VmediaDeviceType,
    image_url: imageUrl,
    image_download_source: (obj['image_download_source'] as ImageDownloadSource | undefined) ?? 'local',
  };
}

/**
 * `device_types` of `DELETE` (Ironic's `args.string_list`: comma separated, trimmed, lower-cased, without
 * duplicates); undefined when absent, meaning every device. InvalidParameterValue for an unknown type.
 */
export function parseDeviceTypes(raw: string | string[] | undefined): VmediaDeviceType[] | undefined {
  if (raw === undefined) return undefined;
  const items: string[] = [];
  for (const part of (Array.isArray(raw) ? raw : [raw]).join(',').split(',')) {
    const v = part.trim().toLowerCase();
    if (v && !items.includes(v)) items.push(v);
  }
  const invalid = items.filter((t) => !VMEDIA_DEVICE_TYPES.includes(t as VmediaDeviceType));
  if (invalid.length > 0) {
    throw fail('InvalidParameterValue', `Invalid device type(s) ${invalid.join(', ')} (valid are ${VMEDIA_DEVICE_TYPES.join(', ')})`);
  }
  return items as VmediaDeviceType[];
}

/** Registers `GET`, `POST` and `DELETE /v1/nodes/{node}/vmedia`. */
export function nodeVmediaRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get<IdParams>('/v1/nodes/:node/vmedia', async (req) => {
    requireUrlVersion(req.apiMinor, VMEDIA_GET_MINOR);
    const node = await getNode(deps, req.params.node, req.apiMinor);
    return deps.conductor.getVirtualMedia(node.uuid);
  });

  app.post<IdParams>('/v1/nodes/:node/vmedia', async (req, reply) => {
    requireUrlVersion(req.apiMinor, VMEDIA_MINOR);
    const request = checkAttachBody(req.body);
    const node = await getNode(deps, req.params.node, req.apiMinor);
    await deps.conductor.attachVirtualMedia(node.uuid, request);
    return reply.code(204).send();
  });

  app.delete<IdParams>('/v1/nodes/:node/vmedia', async (req, reply) => {
    requireUrlVersion(req.apiMinor, VMEDIA_MINOR);
    // NOTE: Ironic reads device_types from the query string only; openstacksdk's detach_vmedia sends it in
    // a JSON body, which Ironic ignores (every device is detached), and so does Ingot.
    const deviceTypes = parseDeviceTypes(req.query.device_types);
    const node = await getNode(deps, req.params.node, req.apiMinor);
    await deps.conductor.detachVirtualMedia(node.uuid, deviceTypes);
    return reply.code(204).send();
  });
}
