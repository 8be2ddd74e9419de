/**
 * What every route plugin receives: the storage it reads, the conductor it asks to act, the API
 * configuration, the logger and the authentication strategy. Also declares the per-request API version fastify carries.
 */
import type { ApiConfig } from '../config/api.js';
import type { AuthStrategy } from './auth/strategy.js';
import type { ConductorClient } from '../conductor/client.js';
import type { Store } from '../db/store.js';
import type { Logger } from '../shared/logger.js';

/** Dependencies of the API. */
export interface ApiDeps {
  store: Store;
  conductor: ConductorClient;
  config: ApiConfig;
  logger: Logger;
  /** How callers authenticate (`api.auth_strategy`); `noauth` when left out. */
  auth?: AuthStrategy;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The requested microversion's minor number (1.Y). */
    apiMinor: number;
  }
}
