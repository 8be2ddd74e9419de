/**
 * Out-of-band management beyond the boot device: `PUT /v1/nodes/{node}/management/inject_nmi` (1.29,
 * synchronous, 204), `PUT /v1/nodes/{node}/states/boot_mode` and `…/states/secure_boot` (1.76,
 * asynchronous, 202 with the states URL as Location). Rules as Ironic's `InjectNmiController` and
 * `NodeStatesController.boot_mode` / `secure_boot`; the node-state checks are the conductor's.
 */
import type { FastifyInstance } from 'fastify';
import { BOOT_MODES, type BootMode } from '../../domain/node.js';
import { BootModeBody, InjectNmiBody, SecureBootBody } from '../../protocol/api/bodies.js';
import { fail } from '../../shared/errors.js';
import type { ApiDeps } from '../context.js';
import { baseUrl, buildUrl } from '../links.js';
import { getNode } from '../resolve.js';
import { requireUrlVersion } from '../microversion.js';
import { toBool } from '../../shared/strict-bool.js';
import { checkBody } from '../validate.js';

type IdParams = { Params: { node: string } };

/** Microversion that added `…/management/inject_nmi`. */
const NMI_MINOR = 29;
/** Microversion that added `…/states/boot_mode` and `…/states/secure_boot`. */
const BOOT_MODE_MINOR = 76;
const isBootMode = (m: string): m is BootMode => (BOOT_MODES as readonly string[]).includes(m);

/** 404 for a URL newer than the request's version, worded as Ironic's boot mode endpoints. */
function requireBootModeVersion(minor: number): void {
  if (minor < BOOT_MODE_MINOR) throw fail('endpointNeedsVersion', { min: BOOT_MODE_MINOR });
}

/** Registers the NMI, boot mode and secure boot routes. */
export function nodeOobManagementRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.put<IdParams>('/v1/nodes/:node/management/inject_nmi', async (req, reply) => {
    requireUrlVersion(req.apiMinor, NMI_MINOR);
    if (req.body !== undefined) checkBody('inject NMI request', req.body, InjectNmiBody);
    const node = await getNode(deps, req.params.node, req.apiMinor);
    await deps.conductor.injectNmi(node.uuid);
    return reply.code(204).send();
  });

  app.put<IdParams>('/v1/nodes/:node/states/boot_mode', async (req, reply) => {
    const minor = req.apiMinor;
    requireBootModeVersion(minor);
    const { target } = checkBody('boot mode request', req.body, BootModeBody);
    if (!isBootMode(target)) {
      throw fail('bootModeInvalid', { mode: target, modes: BOOT_MODES.join(', ') });
    }
    const node = await getNode(deps, req.params.node, minor);
    await deps.conductor.setBootMode(node.uuid, target);
    const base = baseUrl(req, deps.config.public_url);
    return reply.code(202).header('location', buildUrl(base, 'nodes', `${req.params.node}/states`)).send();
  });

  app.put<IdParams>('/v1/nodes/:node/states/secure_boot', async (req, reply) => {
    const minor = req.apiMinor;
    requireBootModeVersion(minor);
    const body = checkBody('secure boot request', req.body, SecureBootBody);
    let enabled: boolean;
    try {
      enabled = toBool('target', body.target);
    } catch {
      throw fail('secureBootInvalid', { value: JSON.stringify(body.target) });
    }
    const node = await getNode(deps, req.params.node, minor);
    await deps.conductor.setSecureBoot(node.uuid, enabled);
    const base = baseUrl(req, deps.config.public_url);
    return reply.code(202).header('location', buildUrl(base, 'nodes', `${req.params.node}/states`)).send();
  });
}
