/**
 * `/v1/nodes/{node}/states`: the state summary, power (`PUT …/power`), provision verbs
 * (`PUT …/provision`), RAID target (`PUT …/raid`) and console (`GET/PUT …/console`). Each change is
 * handed to the conductor, which answers once the work was accepted (202).
 */
import type { FastifyInstance } from 'fastify';
import { powerOffRefusal, powersOff, type JsonObject } from '../../domain/node.js';
import { isVerb, VERBS } from '../../domain/states.js';
import type { PowerTarget, ProvisionOptions } from '../../conductor/client.js';
import { ConsoleBody, PowerBody, ProvisionBody } from '../../protocol/api/bodies.js';
import { fail } from '../../shared/errors.js';
import type { ApiDeps } from '../context.js';
import { baseUrl, buildUrl } from '../links.js';
import { getNode } from '../lookup.js';
import { requireUrlVersion, requireVersion } from '../microversion.js';
import { toBool } from '../../shared/strict-bool.js';
import { nodeFieldAllowed, wireProvisionState } from '../serialize/node.js';
import { checkBody, jsonType } from '../validate.js';

type IdParams = { Params: { node: string } };

const POWER_TARGETS: Readonly<Record<string, number>> = {
  'power on': 1,
  'power off': 1,
  rebooting: 1,
  'soft power off': 27,
  'soft rebooting': 27,
};

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
    const body = checkBody('power state request', req.body, PowerBody);
    const target = body.target as string;
    const min = POWER_TARGETS[target];
    if (min === undefined) {
      throw fail('InvalidParameterValue', `Invalid power state target "${target}"; expected one of ${Object.keys(POWER_TARGETS).join(', ')}.`);
    }
    requireVersion(minor, min, `power state "${target}"`);
    const timeout = body.timeout as number | null | undefined;
    if (timeout !== undefined && timeout !== null) {
      requireVersion(minor, 27, 'the power timeout');
      if (timeout <= 0) throw fail('InvalidParameterValue', `timeout has to be positive integer, got ${timeout}.`);
    }
    const node = await getNode(deps, req.params.node, minor);
    // Ironic refuses here with PowerStateFailure (an InvalidState: 409), whatever the request's version.
    if (node.disable_power_off && powersOff(target)) throw fail('InvalidState', powerOffRefusal(node, target));
    await deps.conductor.setPowerState(node.uuid, target as PowerTarget, timeout ?? undefined);
    const base = baseUrl(req, deps.config.public_url);
    return reply.code(202).header('location', buildUrl(base, 'nodes', `${req.params.node}/states`)).send();
  });

  app.put<IdParams>('/v1/nodes/:node/states/provision', async (req, reply) => {
    const minor = req.apiMinor;
    const body = checkBody('provision state request', req.body, ProvisionBody);
    const target = body.target as string;
    if (!isVerb(target)) throw fail('InvalidStateRequested', `The requested action "${target}" could not be understood.`);
    requireVersion(minor, VERBS[target].minVersion, `the "${target}" verb`);
    const options: ProvisionOptions = {};
    if (body.configdrive !== undefined && body.configdrive !== null) {
      if (target !== 'active' && target !== 'rebuild' && target !== 'deploy') {
        throw fail('InvalidParameterValue', 'Adding a config drive is only supported when setting provision state to active, rebuild or deploy');
      }
      if (typeof body.configdrive === 'object') requireVersion(minor, 56, 'a JSON configdrive');
      options.configdrive = body.configdrive;
    }
    if (body.clean_steps !== undefined && body.clean_steps !== null) {
      if (target !== 'clean') throw fail('InvalidParameterValue', '"clean_steps" is only valid when setting target provision state to clean');
      options.clean_steps = body.clean_steps as JsonObject[];
    } else if (target === 'clean') {
      throw fail('InvalidParameterValue', '"clean_steps" is required when setting target provision state to clean');
    }
    if (body.deploy_steps !== undefined && body.deploy_steps !== null) {
      requireVersion(minor, 69, 'deploy_steps');
      if (!['active', 'rebuild', 'deploy'].includes(target)) {
        throw fail('InvalidParameterValue', '"deploy_steps" is only valid when setting target provision state to active, rebuild or deploy');
      }
      options.deploy_steps = body.deploy_steps as JsonObject[];
    }
    if (body.service_steps !== undefined && body.service_steps !== null) {
      requireVersion(minor, 87, 'service_steps');
      if (target !== 'service') throw fail('InvalidParameterValue', '"service_steps" is only valid when setting target provision state to service');
      options.service_steps = body.service_steps as JsonObject[];
    } else if (target === 'service') {
      throw fail('InvalidParameterValue', '"service_steps" is required when setting target provision state to service');
    }
    if (body.rescue_password !== undefined && body.rescue_password !== null) {
      if (target !== 'rescue') throw fail('InvalidParameterValue', '"rescue_password" is only valid when setting target provision state to rescue');
      options.rescue_password = body.rescue_password as string;
    }
    if (target === 'rescue' && !options.rescue_password) {
      throw fail('InvalidParameterValue', 'A non-empty "rescue_password" is required when setting target provision state to rescue');
    }
    if (body.disable_ramdisk !== undefined && body.disable_ramdisk !== null) {
      requireVersion(minor, 70, 'disable_ramdisk');
      if (target !== 'clean' && target !== 'service') {
        throw fail('InvalidParameterValue', '"disable_ramdisk" can only be used with the clean or service verbs');
      }
      options.disable_ramdisk = toBool('disable_ramdisk', body.disable_ramdisk);
    }
    if (body.runbook !== undefined && body.runbook !== null) {
      throw fail('InvalidParameterValue', 'runbooks (API 1.92) are not supported by Ingot.');
    }
    const node = await getNode(deps, req.params.node, minor);
    if ((target === 'active' || target === 'rebuild' || target === 'deploy') && node.maintenance) {
      throw fail('NodeInMaintenance', `The ${target} action can not be performed on node ${node.uuid} while it is in maintenance mode.`);
    }
    await deps.conductor.doProvisionAction(node.uuid, target, options);
    const base = baseUrl(req, deps.config.public_url);
    return reply.code(202).header('location', buildUrl(base, 'nodes', `${req.params.node}/states`)).send();
  });

  app.put<IdParams>('/v1/nodes/:node/states/raid', async (req, reply) => {
    requireUrlVersion(req.apiMinor, 12);
    const body = req.body;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw fail('InvalidParameterValue', `Invalid RAID configuration: expected a JSON object, got ${jsonType(body ?? null)}.`);
    }
    const disks = (body as JsonObject).logical_disks;
    if (disks !== undefined && !Array.isArray(disks)) {
      throw fail('InvalidParameterValue', `Invalid RAID configuration: logical_disks must be an array, got ${jsonType(disks)}.`);
    }
    const node = await getNode(deps, req.params.node, req.apiMinor);
    await deps.conductor.setTargetRaidConfig(node.uuid, body as JsonObject);
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
