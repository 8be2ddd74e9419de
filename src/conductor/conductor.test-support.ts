/** Helpers for conductor tests: a conductor on a fresh SQLite store in a temp dir, and settle waits. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { lazy } from '../../test/support/lazy.js';
import type { ConductorConfig } from '../config/conductor.js';
import type { InspectorConfig } from '../config/inspector.js';
import type { InspectionRuleInput } from '../inspection/rules/index.js';
import { openStore } from '../db/open-store.js';
import type { Store } from '../db/store.js';
import type { Node } from '../domain/node.js';
import type { ProvisionState } from '../domain/states.js';
import { silentLogger } from '../shared/logger.js';
import type { Clock } from '../shared/clock.js';
import type { DriverRegistry } from '../drivers/registry.js';
import type { ConductorClient } from './client.js';
import { createConductor, type Conductor, type ConductorOptions } from './conductor.js';

export interface TestConductor {
  store: Store;
  conductor: Conductor;
  dir: string;
  /** Stops the conductor (if running), closes the store and removes the directory. */
  close(): Promise<void>;
}

/**
 * A fresh conductor for each test of the calling file (started before it, closed after it): `t` as
 * {@link startTestConductor} gives it, `c` its client.
 */
export function useTestConductor(): { t: TestConductor; c: ConductorClient } {
  let current: TestConductor | undefined;
  beforeEach(async () => {
    current = await startTestConductor();
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return { t: lazy(() => current, 'the test conductor'), c: lazy(() => current?.conductor.client, "the test conductor's client") };
}

/** Opens a store in a new temp dir and starts a conductor on it (periodics off unless asked). */
export async function startTestConductor(
  config: Partial<ConductorConfig> = {},
  opts: {
    periodics?: boolean; clock?: Clock; dir?: string; registry?: DriverRegistry; inspector?: Partial<InspectorConfig>; builtInRules?: InspectionRuleInput[];
    drivers?: ConductorOptions['drivers']; images?: ConductorOptions['images'];
  } = {},
): Promise<TestConductor> {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'ingot-conductor-'));
  const store = await openStore({ dataDir: dir });
  const conductor = createConductor({
    store, logger: silentLogger(), config: { hostname: 'test-conductor', ...config }, periodics: opts.periodics ?? false, ...(opts.clock ? { clock: opts.clock } : {}), ...(opts.registry ? { registry: opts.registry } : {}),
    ...(opts.inspector ? { inspector: opts.inspector } : {}), ...(opts.builtInRules ? { builtInRules: opts.builtInRules } : {}),
    ...(opts.drivers ? { drivers: opts.drivers } : {}), ...(opts.images ? { images: opts.images } : {}),
  });
  await conductor.start();
  return {
    store,
    conductor,
    dir,
    async close() {
      await conductor.stop({ timeoutMs: 2000 }).catch(() => undefined);
      await store.close();
      if (!opts.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Polls the store until `done(node)` holds (default: unlocked and in a stable or failed state). */
export async function waitForNode(store: Store, ident: string, done: (n: Node) => boolean, timeoutMs = 5000): Promise<Node> {
  const until = Date.now() + timeoutMs;
  let node = await store.nodes.get(ident);
  while (!done(node)) {
    if (Date.now() > until) throw new Error(`node ${ident} did not settle within ${timeoutMs} ms: state ${node.provision_state}, reservation ${node.reservation}`);
    await new Promise((r) => setTimeout(r, 5));
    node = await store.nodes.get(ident);
  }
  return node;
}

/** Waits until the node is unlocked in `state`. */
export function waitForState(store: Store, ident: string, state: ProvisionState, timeoutMs = 5000): Promise<Node> {
  return waitForNode(store, ident, (n) => n.provision_state === state && n.reservation === null, timeoutMs);
}

const ROUTE = [['manage', 'manageable'], ['provide', 'available'], ['active', 'active']] as const;

/** Creates a fake-hardware node and takes it through manage, provide and deploy until it is in `target`. */
export async function createNodeIn(t: TestConductor, name: string, target: 'enroll' | 'manageable' | 'available' | 'active', extra: Partial<Node> = {}): Promise<Node> {
  const c = t.conductor.client;
  let node = await c.createNode({ driver: 'fake-hardware', name, ...extra });
  for (const [verb, state] of ROUTE) {
    if (node.provision_state === target) break;
    await c.doProvisionAction(name, verb, {});
    node = await waitForState(t.store, name, state);
  }
  return node;
}
