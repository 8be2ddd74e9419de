/**
 * `/v1/nodes/{node}/states`: the state summary, power (`PUT …/power`), provision verbs
 * (`PUT …/provision`), RAID target (`PUT …/raid`) and console (`GET/PUT …/console`). The API checks
 * the request's shape and version; each change is handed to the conductor, which checks the node's
 * state (maintenance, `disable_power_off`, the transition) and answers once the work was accepted (202).
 */
import type { FastifyInstance } from 'fastify';
import { isVerb, VERBS } from '../../domain/states.js';
import type { PowerTarget } from '../../conductor/client.js';
import { ConsoleBody, PowerBody, ProvisionBody, TargetRaidBody } from '../../protocol/api/bodies.js';
import { fail } from '../../shared/errors.js';
import type { ApiDeps } from '../context.js';
import { baseUrl, buildUrl } from '../links.js';
import { getNode } from '../resolve.js';
import { requireUrlVersion, requireVersion } from '../microversion.js';
import { toBool } from '../../shared/strict-bool.js';
import { provisionOptionsFromBody } from '../provision-input.js';
import { nodeFieldAllowed, wireProvisionState } from '../serialize/node.js';
import { checkBody } from '../validate.js';

type IdParams = { Params: { node: string } };

/** Power targets and the version that brought each. */
const POWER_TARGETS: Readonly<Record<PowerTarget, number>> = {
  'power on': 1,
  'power off': 1,
  rebooting: 1,
  'soft power off': 27,
  'soft rebooting': 27,
};

const isPowerTarget = (t: string): t is PowerTarget => Object.hasOwn(POWER_TARGETS, t);

/** Registers the node state routes. */
export function nodeStateRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get<IdParams>('/v1/nodes/:node/states', async (req) => {
    const minor = req.apiMinor;
    const n = await getNode(deps, req.params.node, minor);
    const out: Record<string, unknown> = {
      console_enabled: n.console_enabled,
      last_error: n.last_error,
      power_state: n.power_state,
      provision_state: wireProvisionState(n.provision_state, minor),
      provision_updated_at: n.provision_updated_at,
      target_power_state: n.target_power_state,
      target_provision_state: n.target_provision_state,
    };
    if (nodeFieldAllowed('raid_config', minor)) {
      out.raid_config = n.raid_config;
      out.target_raid_config = n.target_raid_config;
    }
    if (nodeFieldAllowed('boot_mode', minor)) {
      out.boot_mode = n.boot_mode;
      out.secure_boot = n.secure_boot;
    }
    return out;
  });

  app.put<IdParams>('/v1/nodes/:node/states/power', async (req, reply) => {
    const minor = req.apiMinor;
    const { target, timeout } = checkBody('power state request', req.body, PowerBody);
    if (!isPowerTarget(target)) {
      throw fail('powerTargetInvalid', { target, targets: Object.keys(POWER_TARGETS).join(', ') });
    }
    requireVersion(minor, POWER_TARGETS[target], `power state "${target}"`);
    if (timeout !== undefined && timeout !== null) {
      requireVersion(minor, 27, 'the power timeout');
      if (timeout <= 0) throw fail('powerTimeoutNotPositive', { timeout });
    }
    const node = await getNode(deps, req.params.node, minor);
    await deps.conductor.setPowerState(node.uuid, target, timeout ?? undefined);
    const base = baseUrl(req, deps.config.public_url);
    return reply.code(202).header('location', buildUrl(base, 'nodes', `${req.params.node}/states`)).send();
  });

  app.put<IdParams>('/v1/nodes/:node/states/provision', async (req, reply) => {
    const minor = req.apiMinor;
    const body = checkBody('provision state request', req.body, ProvisionBody);
    const target = body.target;
    if (!isVerb(target)) throw fail('provisionVerbUnknown', { action: target });
    requireVersion(minor, VERBS[target].minVersion, `the "${target}" verb`);
    const options = provisionOptionsFromBody(target, body, minor);
    const node = await getNode(deps, req.params.node, minor);
    await deps.conductor.doProvisionAction(node.uuid, target, options);
    const base = baseUrl(req, deps.config.public_url);
    return reply.code(202).header('location', buildUrl(base, 'nodes', `${req.params.node}/states`)).send();
  });

  app.put<IdParams>('/v1/nodes/:node/states/raid', async (req, reply) => {
    requireUrlVersion(req.apiMinor, 12);
    const config = checkBody('RAID configuration', req.body, TargetRaidBody);
    const node = await getNode(deps, req.params.node, req.apiMinor);
    await deps.conductor.setTargetRaidConfig(node.uuid, config);
    return reply.code(204).send();
  });

  app.get<IdParams>('/v1/nodes/:node/states/console', async (req) => {
    const node = await getNode(deps, req.params.node, req.apiMinor);
    return deps.conductor.getConsole(node.uuid);
  });

  app.put<IdParams>('/v1/nodes/:node/states/console', async (req, reply) => {
    const body = checkBody('console request', req.body, ConsoleBody);
    const enabled = toBool('enabled', body.enabled);
    const node = await getNode(deps, req.params.node, req.apiMinor);
    await deps.conductor.setConsoleMode(node.uuid, enabled);
    const base = baseUrl(req, deps.config.public_url);
    return reply.code(202).header('location', buildUrl(base, 'nodes', `${req.params.node}/states/console`)).send();
  });
}
