/**
 * The API on a real conductor, for the API tests that exercise the conductor's behaviour (locks, workers,
 * drivers): a conductor on a fresh SQLite store (src/conductor/test-support.ts) and the app built on it,
 * the conductor reached through the contract as the run says (test/support/contract.ts). Tests under
 * src/api/ get the conductor from here: lint lets the API import only the contract of `conductor/`.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/api/app.js';
import { testApiConfig } from '../../src/api/app.test-support.js';
import type { ConductorClient } from '../../src/conductor/client.js';
import { startTestConductor, type TestConductor } from '../../src/conductor/conductor.test-support.js';
import { silentLogger } from '../../src/shared/logger.js';
import { overContract } from './contract.js';

export { waitForNode, waitForState, type TestConductor } from '../../src/conductor/conductor.test-support.js';

/** A conductor and the API on it. */
export interface ApiOnConductor {
  t: TestConductor;
  app: FastifyInstance;
  /** What the app holds: the conductor's client itself, or that client behind the loopback JSON transport. */
  client: ConductorClient;
  /** Closes the app, then the conductor and its store. */
  close(): Promise<void>;
}

/** Starts a conductor as `startTestConductor` does and the API on it. */
export async function startApiOnConductor(...args: Parameters<typeof startTestConductor>): Promise<ApiOnConductor> {
  const t = await startTestConductor(...args);
  const client = overContract(t.conductor.client);
  const app = buildApp({ store: t.store, conductor: client, config: testApiConfig(), logger: silentLogger() });
  await app.ready();
  return {
    t,
    app,
    client,
    async close() {
      await app.close();
      await t.close();
    },
  };
}
