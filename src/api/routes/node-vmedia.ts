/**
 * Virtual media of a node: `POST /v1/nodes/{node}/vmedia` attaches an image (1.89), `DELETE` detaches
 * some or all device types (1.89), both 204 once the conductor accepted the work (a failure of the work
 * lands in the node's last_error); `GET` lists the machine's devices (1.93, 200, a bare JSON array).
 * Rules as Ironic's `NodeVmediaController` (`VMEDIA_ATTACH_VALIDATOR`, `image_publisher.
 * VMEDIA_SUPPORTED_URL_SCHEMES`): before 1.89 the whole URL is not found, `GET` before 1.93 too.
 */
import type { FastifyInstance } from 'fastify';
import type { VirtualMediaAttach } from '../../conductor/client.js';
import type { VmediaDeviceType } from '../../domain/node.js';
import { VMEDIA_DEVICE_TYPES, VmediaAttachBody } from '../../protocol/api/bodies.js';
import { checkSchema, shortSchemaMessage } from '../../protocol/json-schema-errors.js';
import { fail } from '../../shared/errors.js';
import type { ApiDeps } from '../context.js';
import { getNode } from '../resolve.js';
import { requireUrlVersion } from '../microversion.js';
import type { Query } from '../query.js';

type IdParams = { Params: { node: string }; Querystring: Query };

/** Microversion that added `POST`/`DELETE …/vmedia`. */
export const VMEDIA_MINOR = 89;
/** Microversion that added `GET …/vmedia`. */
export const VMEDIA_GET_MINOR = 93;

/** URL schemes a BMC can fetch virtual media from (Ironic's `VMEDIA_SUPPORTED_URL_SCHEMES`). */
const URL_SCHEMES: readonly string[] = ['http', 'https', 'nfs', 'cifs', 'smb'];

const isDeviceType = (t: string): t is VmediaDeviceType => (VMEDIA_DEVICE_TYPES as readonly string[]).includes(t);

/** The attach request, checked against Ironic's `VMEDIA_ATTACH_VALIDATOR` and worded as its `args.schema` words a jsonschema error. */
export function checkAttachBody(body: unknown): VirtualMediaAttach {
  if (body === undefined) throw fail('vmediaMissing');
  const request = checkSchema(VmediaAttachBody, body, (e) => fail('vmediaSchemaError', { reason: shortSchemaMessage(e) }));
  // As Python's urlparse: the scheme is what precedes the first ':' when it is a valid scheme, lower-cased.
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(request.image_url)?.[1]?.toLowerCase() ?? '';
  if (!URL_SCHEMES.includes(scheme)) throw fail('vmediaUrlSchemeUnsupported', { scheme });
  return { ...request, image_download_source: request.image_download_source ?? 'local' };
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
  const invalid = items.filter((t) => !isDeviceType(t));
  if (invalid.length > 0) throw fail('vmediaDeviceTypesInvalid', { invalid: invalid.join(', '), valid: VMEDIA_DEVICE_TYPES.join(', ') });
  return items.filter(isDeviceType);
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
