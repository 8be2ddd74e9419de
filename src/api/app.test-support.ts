/**
 * Test support for the API: `createTestApi()` opens a temporary SQLite store and builds the app on it
 * with the hand-written {@link FakeConductor}, reached through the conductor contract as the run says
 * (in-process, or over the loopback JSON transport: test/support/contract.ts); and the small helpers of
 * the API tests (config, version headers, the error envelope's text).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { overContract } from '../../test/support/contract.js';
import { FakeConductor } from '../../test/support/fake-conductor.js';
import { lazy } from '../../test/support/lazy.js';
import type { ConductorClient } from '../conductor/client.js';
import type { ApiConfig } from '../config/api.js';
import { afterAll, beforeAll } from 'vitest';
import { openStore } from '../db/open-store.js';
import type { Store } from '../db/store.js';
import { silentLogger } from '../shared/logger.js';
import { buildApp } from './app.js';

/** An API on a fresh temporary SQLite store. */
export interface TestApi {
  app: FastifyInstance;
  store: Store;
  /** The fake behind the contract (its records of calls, NMIs, virtual media). */
  conductor: FakeConductor;
  /** What the app holds: the fake itself, or the fake behind the loopback JSON transport. */
  client: ConductorClient;
  close(): Promise<void>;
}

/** Test API config: the defaults with overrides. */
export function testApiConfig(overrides: Partial<ApiConfig> = {}): ApiConfig {
  return {
    host: '127.0.0.1', port: 0, inspector_port: 0, public_url: '', max_limit: 1000, max_body_bytes: 1048576, node_render_cache_chars: 4_000_000, max_inspection_body_bytes: 33554432,
    conductor_alive_timeout_s: 60, agent_rate_limit_per_minute: 600, agent_rate_limit_exempt: ['127.0.0.1', '::1'],
    auth_strategy: 'noauth', http_basic_auth_user_file: '', allow_insecure_noauth: false, ...overrides,
  };
}

/** Opens a temporary store and builds the app with a {@link FakeConductor}. */
export async function createTestApi(overrides: Partial<ApiConfig> = {}): Promise<TestApi> {
  const dir = await mkdtemp(join(tmpdir(), 'ingot-api-'));
  const store = await openStore({ dataDir: dir });
  const conductor = new FakeConductor(store);
  const client = overContract(conductor);
  const app = buildApp({ store, conductor: client, config: testApiConfig(overrides), logger: silentLogger() });
  await app.ready();
  return {
    app,
    store,
    conductor,
    client,
    async close() {
      await app.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The test API of the calling test file: created before its first test and closed after its last (as
 * `beforeAll`/`afterAll` of where it is called). Its fields are read in tests, once it is created.
 */
export function useTestApi(overrides: Partial<ApiConfig> = {}): TestApi {
  let api: TestApi | undefined;
  beforeAll(async () => {
    api = await createTestApi(overrides);
  });
  afterAll(async () => {
    await api?.close();
  });
  return lazy(() => api, 'the test API');
}

/** Request headers asking for microversion `v` (`'1.82'`, `'latest'`, …). */
export const version = (v: string): Record<string, string> => ({ 'x-openstack-ironic-api-version': v });
export const LATEST = version('latest');

/** The `faultstring` inside an error envelope body. */
export function faultString(body: string): string {
  return (JSON.parse((JSON.parse(body) as { error_message: string }).error_message) as { faultstring: string }).faultstring;
}
