/**
 * An authentication strategy (`api.auth_strategy`): it turns a request's headers into the caller's
 * identity, or refuses the request with an IngotError (Unauthorized, 401; InvalidParameterValue, 400).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { RequestContext } from '../../shared/request-context.js';

/** Who the caller is: the request context without its request id. */
export type Identity = Omit<RequestContext, 'request_id'>;

export interface AuthStrategy {
  /** `noauth`, `http_basic`, … */
  readonly name: string;
  /** The caller of a request, or a thrown IngotError. Synchronous when nothing has to be computed or read. */
  authenticate(headers: IncomingHttpHeaders): Identity | Promise<Identity>;
  /** Stops what the strategy watches (files); idempotent. */
  close(): void;
}

/** The caller of a public endpoint (version documents, the agent's): nobody in particular, allowed nothing more. */
export const ANONYMOUS: Identity = Object.freeze({ roles: [], is_admin: false });

/** `noauth`: every caller may do everything and is recorded as nobody, as with Ironic's noauth. */
export const NOAUTH: AuthStrategy = Object.freeze({
  name: 'noauth',
  authenticate: () => NOAUTH_IDENTITY,
  close: () => {},
});
const NOAUTH_IDENTITY: Identity = Object.freeze({ roles: ['admin'], is_admin: true, system_scope: 'all' as const });
