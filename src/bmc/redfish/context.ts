/**
 * What every route of the emulator shares: the fleet, sessions, tasks, the emulator-held Floppy state,
 * and the per-request helpers (who is calling, which machine a URI names, fault injection, If-Match).
 */
import type { FastifyRequest } from 'fastify';
import { sleep } from '../../shared/clock.js';
import type { Machine, VirtualMediaState } from '../machine.js';
import { owns, type Principal, type SessionStore } from './auth.js';
import { internalError, malformedJson, notFound, preconditionFailed, unauthorized } from './errors.js';
import type { TaskStore } from './tasks.js';

export interface EmulatorContext {
  /** The fleet by name (= Redfish system id). */
  machines: Map<string, Machine>;
  /** The fleet by BMC user name, so that a request looks at its candidates only. */
  byUser: Map<string, Machine[]>;
  /** The fleet by Manager id. */
  byManagerId: Map<string, Machine>;
  sessions: SessionStore;
  tasks: TaskStore;
  /** Floppy virtual media per machine name: the machine contract has one (CD) device only. */
  floppy: Map<string, VirtualMediaState>;
  /** Answer `ComputerSystem.Reset` with 202 and a task. */
  asyncReset: boolean;
  /** Answer `VirtualMedia.InsertMedia`/`EjectMedia` with 202 and a task. */
  asyncMedia: boolean;
  /** The service root's UUID. */
  serviceUuid: string;
  /** Aborted when the emulator closes; injected latency ends early. */
  signal: AbortSignal;
  /** Source of randomness for `error_rate` (tests pin it). */
  random: () => number;
}

const principals = new WeakMap<FastifyRequest, Principal>();

/** Records the authenticated caller of `req` (done once, by the auth hook). */
export function setPrincipal(req: FastifyRequest, principal: Principal): void {
  principals.set(req, principal);
}

/** The authenticated caller of `req`; the auth hook has run for every non-public route. */
export function principalOf(req: FastifyRequest): Principal {
  const p = principals.get(req);
  if (!p) throw unauthorized();
  return p;
}

/** The machines whose BMC user name is `principal`'s (their passwords still have to match). */
export function candidates(ctx: EmulatorContext, principal: Principal): Machine[] {
  return ctx.byUser.get(principal.username) ?? [];
}

/** The request path without query string and trailing slash, for error messages. */
export function pathOf(req: FastifyRequest): string {
  const p = req.url.split('?')[0] ?? req.url;
  return p.length > 1 ? p.replace(/\/+$/, '') : p;
}

/**
 * The machine `name` as the caller may act on it, after the machine's injected faults: 404 when the
 * caller does not hold its credentials (others' machines do not exist for it), 401 when its BMC rejects
 * every login, then `latency_ms` of delay and an HTTP 500 with probability `error_rate`.
 */
export async function machineFor(ctx: EmulatorContext, req: FastifyRequest, name: string): Promise<Machine> {
  const machine = ctx.machines.get(name);
  if (!machine || !owns(principalOf(req), machine)) throw notFound(pathOf(req));
  if (machine.faults.reject_credentials) throw unauthorized();
  if (machine.faults.latency_ms > 0) await sleep(machine.faults.latency_ms, ctx.signal);
  if (machine.faults.error_rate > 0 && ctx.random() < machine.faults.error_rate) {
    throw internalError(`Injected fault: the BMC of ${machine.name} failed this request.`);
  }
  return machine;
}

/** Refuses a change whose `If-Match` names none of the resource's current ETag (`*` matches any). */
export function checkIfMatch(req: FastifyRequest, current: string): void {
  const header = req.headers['if-match'];
  if (header === undefined) return;
  const wanted = (Array.isArray(header) ? header.join(',') : header).split(',').map((t) => t.trim());
  const strip = (t: string) => t.replace(/^W\//, '');
  if (wanted.some((t) => t === '*' || strip(t) === strip(current))) return;
  throw preconditionFailed(pathOf(req));
}

/** The JSON object body of `req`, or 400 MalformedJSON. */
export function bodyObject(req: FastifyRequest, allowEmpty = false): Record<string, unknown> {
  const body = req.body;
  if ((body === undefined || body === null) && allowEmpty) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw malformedJson();
  }
  return body as Record<string, unknown>;
}
