/**
 * A conductor (SQLite, periodics on) and the API on loopback, for tests that drive agent-driven
 * deployments over HTTP with simulated agents (`AgentMachine`): manual-management nodes, agents that
 * heartbeat every 0.6–1.2 s (heartbeat timeout 2 s), no power sync in the way.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/api/app.js';
import { testApiConfig } from '../../src/api/app.test-support.js';
import type { ConductorConfig } from '../../src/config/conductor.js';
import { startTestConductor, type TestConductor } from '../../src/conductor/conductor.test-support.js';
import { silentLogger } from '../../src/shared/logger.js';

export interface DeployHarness {
  t: TestConductor;
  app: FastifyInstance;
  /** The API's base URL. */
  api: string;
  /** Closes the API, then the conductor. */
  close(): Promise<void>;
}

export async function startDeployHarness(config: Partial<ConductorConfig>, opts: Parameters<typeof startTestConductor>[1] = {}): Promise<DeployHarness> {
  const t = await startTestConductor({ enabled_hardware_types: ['manual-management'], agent_heartbeat_timeout_s: 2, sync_power_state_interval_s: 600, ...config }, opts);
  const app = buildApp({ store: t.store, conductor: t.conductor.client, config: testApiConfig(), logger: silentLogger() });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    t,
    app,
    api: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    async close() {
      await app.close();
      await t.close();
    },
  };
}
