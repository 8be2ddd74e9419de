/**
 * /redfish/v1/Systems: the collection, each ComputerSystem (GET with ETag, PATCH of Boot with
 * If-Match), `#ComputerSystem.Reset`, and the read-only hardware sub-resources.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { BootOverride, Machine, MachineBootDevice, MachinePowerAction } from '../../machine.js';
import { visibleMachines } from '../auth.js';
import { bodyObject, candidates, checkIfMatch, machineFor, pathOf, principalOf, type EmulatorContext } from '../context.js';
import { actionParameterMissing, actionValueNotInList, notFound, propertyUnknown, valueNotInList, valueTypeError } from '../errors.js';
import { collection, etagOf, V1 } from '../odata.js';
import { BOOT_ENABLED, BOOT_MODES, BOOT_TARGETS, renderSystem, renderSystemPart, RESET_TYPES, systemUri, type ResetType } from '../system-resources.js';
import { renderTask, taskUri } from '../tasks.js';

type IdParams = { Params: { id: string } };

/** The system's representation and its ETag. */
async function current(m: Machine): Promise<{ body: Record<string, unknown>; etag: string }> {
  const body = renderSystem(m, await m.power());
  return { body, etag: etagOf(body) };
}

/** Validates a PATCH body of a ComputerSystem; returns the boot override change it asks for. */
export function parseBootPatch(body: Record<string, unknown>): Partial<BootOverride> {
  for (const key of Object.keys(body)) if (key !== 'Boot') throw propertyUnknown(key, `#/${key}`);
  const boot = body.Boot;
  if (boot === undefined) return {};
  if (typeof boot !== 'object' || boot === null || Array.isArray(boot)) throw valueTypeError('Boot', boot, '#/Boot');
  const change: Partial<BootOverride> = {};
  let disabled = false;
  for (const [key, value] of Object.entries(boot as Record<string, unknown>)) {
    const pointer = `#/Boot/${key}`;
    if (key === 'BootSourceOverrideTarget') {
      const device = (Object.keys(BOOT_TARGETS) as MachineBootDevice[]).find((d) => BOOT_TARGETS[d] === value);
      if (!device) throw valueNotInList(key, value, pointer);
      change.device = device;
    } else if (key === 'BootSourceOverrideEnabled') {
      if (!BOOT_ENABLED.includes(value as (typeof BOOT_ENABLED)[number])) throw valueNotInList(key, value, pointer);
      if (value === 'Disabled') disabled = true;
      else change.persistence = value === 'Once' ? 'once' : 'continuous';
    } else if (key === 'BootSourceOverrideMode') {
      const mode = (Object.keys(BOOT_MODES) as BootOverride['mode'][]).find((k) => BOOT_MODES[k] === value);
      if (!mode) throw valueNotInList(key, value, pointer);
      change.mode = mode;
    } else {
      throw propertyUnknown(key, pointer);
    }
  }
  // NOTE: `Disabled` turns the override off whatever target comes with it (ComputerSystem.v1_x Boot).
  if (disabled) change.device = 'none';
  return change;
}

/** The machine action of a `ResetType`; `PushPowerButton` toggles like the front-panel button. */
async function resetAction(m: Machine, type: ResetType): Promise<MachinePowerAction> {
  switch (type) {
    case 'On':
    case 'ForceOn':
      return 'on';
    case 'ForceOff':
      return 'off';
    case 'GracefulShutdown':
      return 'soft-off';
    case 'GracefulRestart':
    case 'ForceRestart':
      return 'reset';
    case 'PowerCycle':
      return 'cycle';
    case 'Nmi':
      return 'nmi';
    case 'PushPowerButton':
      return (await m.power()) === 'on' ? 'soft-off' : 'on';
  }
}

/** Answers an accepted action: 204 at once, or 202 with a task monitor when the action runs as a task. */
export function acceptAction(ctx: EmulatorContext, req: FastifyRequest, reply: FastifyReply, async: boolean, name: string, work: () => Promise<void>): Promise<unknown> | FastifyReply {
  if (!async) return work().then(() => reply.code(204).send());
  const task = ctx.tasks.start(principalOf(req), name, work);
  return reply.code(202).header('location', taskUri(task.id)).send(renderTask(task));
}

export function systemRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get(`${V1}/Systems`, async (req) => {
    const members = visibleMachines(principalOf(req), candidates(ctx, principalOf(req))).map(systemUri);
    return collection(`${V1}/Systems`, 'Computer System Collection', 'ComputerSystemCollection', members);
  });

  app.get<IdParams>(`${V1}/Systems/:id`, async (req, reply) => {
    const { body, etag } = await current(await machineFor(ctx, req, req.params.id));
    return reply.header('etag', etag).send(body);
  });

  app.patch<IdParams>(`${V1}/Systems/:id`, async (req, reply) => {
    const m = await machineFor(ctx, req, req.params.id);
    const change = parseBootPatch(bodyObject(req));
    checkIfMatch(req, (await current(m)).etag);
    if (Object.keys(change).length > 0) m.setBootOverride(change);
    return reply.code(204).header('etag', (await current(m)).etag).send();
  });

  app.post<IdParams>(`${V1}/Systems/:id/Actions/ComputerSystem.Reset`, async (req, reply) => {
    const m = await machineFor(ctx, req, req.params.id);
    const body = bodyObject(req, true);
    const type = body.ResetType;
    if (type === undefined) throw actionParameterMissing('ComputerSystem.Reset', 'ResetType');
    if (!RESET_TYPES.includes(type as ResetType)) throw actionValueNotInList('ComputerSystem.Reset', 'ResetType', type);
    const action = await resetAction(m, type as ResetType);
    return acceptAction(ctx, req, reply, ctx.asyncReset, `Reset ${m.name} (${String(type)})`, () => m.act(action));
  });

  app.get<IdParams & { Params: { '*': string } }>(`${V1}/Systems/:id/*`, async (req) => {
    const m = await machineFor(ctx, req, req.params.id);
    const segments = req.params['*'].split('/').filter((s) => s !== '');
    const part = renderSystemPart(m, segments);
    if (!part) throw notFound(pathOf(req));
    return part;
  });
}
