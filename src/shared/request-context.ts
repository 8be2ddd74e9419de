/**
 * Who asked for what is being done: the request context of an API call (Ironic's `RequestContext`),
 * plain data that crosses the conductor contract with every call. In one process it follows the call
 * through its asynchronous work, background work the call started included, as oslo.context's
 * thread-local context does in Ironic; over the JSON transport it is the `context` member of each call.
 * The conductor reads it to record who made a change (the node history's `user`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** The caller of one API request. Optional fields are left out when unknown (plain JSON). */
export interface RequestContext {
  /** `req-<uuid>`, the `Openstack-Request-Id` of the answer. */
  request_id: string;
  /** The user's id (the htpasswd user name with `http_basic`); absent with `noauth` and on the public endpoints. */
  user?: string;
  /** The project the user acts for; absent without Keystone. */
  project?: string;
  /** The user's domain; absent without Keystone. */
  domain?: string;
  /** The user's roles (`admin`, `member`, `reader`, `service`). */
  roles: string[];
  /** Whether the caller may do everything (`noauth`, and every `http_basic` user, as in Ironic). */
  is_admin: boolean;
  /** `all` for a system-scoped caller. */
  system_scope?: 'all';
}

const storage = new AsyncLocalStorage<RequestContext>();

/** The context of the request whose work is running, if any. */
export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}

/** Runs `fn` (and the asynchronous work it starts) in `context`. */
export function runInRequestContext<T>(context: RequestContext | undefined, fn: () => T): T {
  return context === undefined ? storage.exit(fn) : storage.run(context, fn);
}

/** Whether `value` is a request context as it travels (fields of the right types, no others). */
export function isRequestContext(value: unknown): value is RequestContext {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  const optionalString = (k: string) => !Object.hasOwn(v, k) || typeof v[k] === 'string';
  return (
    Object.keys(v).every((k) => KEYS.has(k)) &&
    typeof v.request_id === 'string' &&
    optionalString('user') && optionalString('project') && optionalString('domain') &&
    Array.isArray(v.roles) && v.roles.every((r) => typeof r === 'string') &&
    typeof v.is_admin === 'boolean' &&
    (!Object.hasOwn(v, 'system_scope') || v.system_scope === 'all')
  );
}

const KEYS = new Set(['request_id', 'user', 'project', 'domain', 'roles', 'is_admin', 'system_scope']);
