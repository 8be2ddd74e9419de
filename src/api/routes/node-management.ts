/**
 * Node management: boot device (`GET/PUT …/management/boot_device`, `…/supported`), interface
 * validation (`GET …/validate`) and maintenance mode (`PUT/DELETE …/maintenance`).
 */
import type { FastifyInstance } from 'fastify';
import type { BootDevice } from '../../domain/node.js';
import { INTERFACES } from '../../domain/node.js';
import { BootDeviceBody, MaintenanceBody } from '../../protocol/api/bodies.js';
import { fail } from '../../shared/errors.js';
import type { ApiDeps } from '../context.js';
import { getNode } from '../resolve.js';
import { one, type Query } from '../query.js';
import { toBool } from '../../shared/strict-bool.js';
import { nodeFieldAllowed } from '../serialize/node.js';
import { checkBody } from '../validate.js';

type IdParams = { Params: { node: string } };

const BOOT_DEVICES: readonly BootDevice[] = ['pxe', 'disk', 'cdrom', 'bios', 'safe', 'wanboot', 'floppy'];
const isBootDevice = (d: string): d is BootDevice => (BOOT_DEVICES as readonly string[]).includes(d);

/** Registers the management, validate and maintenance routes. */
export function nodeManagementRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get<IdParams>('/v1/nodes/:node/management/boot_device', async (req) => {
    const node = await getNode(deps, req.params.node, req.apiMinor);
    return deps.conductor.getBootDevice(node.uuid);
  });

  app.get<IdParams>('/v1/nodes/:node/management/boot_device/supported', async (req) => {
    const node = await getNode(deps, req.params.node, req.apiMinor);
    return { supported_boot_devices: await deps.conductor.getSupportedBootDevices(node.uuid) };
  });

  app.put<IdParams>('/v1/nodes/:node/management/boot_device', async (req, reply) => {
    const body = checkBody('boot device request', req.body, BootDeviceBody);
    const device = body.boot_device;
    if (!isBootDevice(device)) {
      throw fail('bootDeviceInvalid', { device, devices: BOOT_DEVICES.join(', ') });
    }
    const persistent = body.persistent === undefined || body.persistent === null ? false : toBool('persistent', body.persistent);
    const node = await getNode(deps, req.params.node, req.apiMinor);
    await deps.conductor.setBootDevice(node.uuid, device, persistent);
    return reply.code(204).send();
  });

  app.get<IdParams>('/v1/nodes/:node/validate', async (req) => {
    const minor = req.apiMinor;
    const node = await getNode(deps, req.params.node, minor);
    const result = await deps.conductor.validate(node.uuid);
    const out: Record<string, { result: boolean | null; reason?: string }> = {};
    for (const iface of INTERFACES) {
      const r = result[iface];
      if (!r || !nodeFieldAllowed(`${iface}_interface`, minor)) continue;
      out[iface] = r.reason === null || r.result === true ? { result: r.result } : { result: r.result, reason: r.reason };
    }
    return out;
  });

  app.put<IdParams>('/v1/nodes/:node/maintenance', async (req, reply) => {
    const body = req.body === undefined ? {} : checkBody('maintenance request', req.body, MaintenanceBody);
    const reason = body.reason ?? one(req.query as Query, 'reason') ?? null;
    const node = await getNode(deps, req.params.node, req.apiMinor);
    await deps.conductor.setMaintenance(node.uuid, true, reason);
    return reply.code(202).send();
  });

  app.delete<IdParams>('/v1/nodes/:node/maintenance', async (req, reply) => {
    const node = await getNode(deps, req.params.node, req.apiMinor);
    await deps.conductor.setMaintenance(node.uuid, false, null);
    return reply.code(202).send();
  });
}
