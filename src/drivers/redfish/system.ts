/** Reading a node's ComputerSystem and calling its Reset action, shared by the power and management interfaces. */
import type { DriverTask } from '../interfaces/base.js';
import type { RedfishClient, RedfishResource } from './client.js';
import { odataId } from './client.js';
import { parseRedfishDriverInfo } from './driver-info.js';
import { redfishError, type RedfishError } from './errors.js';
import type { RedfishClientPool } from './pool.js';

/** Standard ResetType values (Redfish Resource schema, ResetType), tried when a system lists none. */
export const ALL_RESET_TYPES = ['On', 'ForceOff', 'GracefulShutdown', 'GracefulRestart', 'ForceRestart', 'Nmi', 'ForceOn', 'PushPowerButton', 'PowerCycle'] as const;

/** A node's system as one operation sees it. */
export interface SystemHandle {
  client: RedfishClient;
  path: string;
  signal: AbortSignal;
}

/** Options every Redfish interface factory takes. */
export interface RedfishInterfaceOptions {
  /** The conductor's Redfish clients (sessions and connections reused across tasks). */
  pool: RedfishClientPool;
}

/** The client and system path of the task's node. */
export async function openSystem(task: DriverTask, opts: RedfishInterfaceOptions): Promise<SystemHandle> {
  const info = parseRedfishDriverInfo(task.node);
  const client = opts.pool.client(info);
  return { client, path: await client.systemPath(task.signal), signal: task.signal };
}

/** GETs the system resource. */
export function readSystem(h: SystemHandle): Promise<RedfishResource> {
  return h.client.get(h.path, h.signal);
}

function isRecord(v: unknown): v is RedfishResource {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function resetAction(system: RedfishResource): RedfishResource | null {
  const actions = system['Actions'];
  const reset = isRecord(actions) ? actions['#ComputerSystem.Reset'] : null;
  return isRecord(reset) ? reset : null;
}

/**
 * The ResetType values the system accepts: `ResetType@Redfish.AllowableValues` on the action, else the
 * `@Redfish.ActionInfo` resource's ResetType parameter, else every standard value (as sushy assumes).
 */
export async function allowedResetTypes(h: SystemHandle, system: RedfishResource): Promise<string[]> {
  const action = resetAction(system);
  const listed = action?.['ResetType@Redfish.AllowableValues'];
  if (Array.isArray(listed)) return listed.filter((v): v is string => typeof v === 'string');
  const infoUri = typeof action?.['@Redfish.ActionInfo'] === 'string' ? action['@Redfish.ActionInfo'] : null;
  if (infoUri) {
    const info = await h.client.get(infoUri, h.signal);
    const params = Array.isArray(info['Parameters']) ? info['Parameters'] : [];
    const param = params.find((p) => isRecord(p) && p['Name'] === 'ResetType');
    if (isRecord(param) && Array.isArray(param['AllowableValues'])) {
      return param['AllowableValues'].filter((v): v is string => typeof v === 'string');
    }
  }
  return [...ALL_RESET_TYPES];
}

/** The first of `preferred` the system allows, or null. */
export function pickResetType(allowed: readonly string[], preferred: readonly string[]): string | null {
  return preferred.find((p) => allowed.includes(p)) ?? null;
}

/** POSTs ComputerSystem.Reset with `resetType` (following a task monitor if the BMC answers 202). */
export async function resetSystem(h: SystemHandle, system: RedfishResource, resetType: string): Promise<void> {
  const target = (typeof resetAction(system)?.['target'] === 'string' ? resetAction(system)?.['target'] : null) as string | null;
  await h.client.post(target ?? `${h.path}/Actions/ComputerSystem.Reset`, { ResetType: resetType }, h.signal);
}

/** The error when the system allows none of the reset types an operation could use. */
export function noResetType(h: SystemHandle, what: string, wanted: readonly string[], allowed: readonly string[]): RedfishError {
  return redfishError(null, 'redfishNoResetType', { bmc: h.client.bmc, system: h.path, action: what, allowed: allowed.join(', ') || '(none)', wanted: wanted.join(', ') });
}

/** The `@odata.id` of `system[key]` (e.g. `Processors`), or null. */
export function linkOf(system: RedfishResource, key: string): string | null {
  return odataId(system[key]);
}

/** Reads every member of a collection (skipping none: a failed member read fails the call). */
export async function readMembers(h: SystemHandle, collection: string): Promise<RedfishResource[]> {
  const body = await h.client.get(collection, h.signal);
  const ids = Array.isArray(body['Members']) ? body['Members'].map(odataId).filter((m): m is string => m !== null) : [];
  return Promise.all(ids.map((id) => h.client.get(id, h.signal)));
}
