/**
 * The conductor service: registers itself, recovers what a previous life of this host left behind,
 * runs the periodic tasks and the worker pool, and stops gracefully (finish or safely abandon work).
 *
 *     const conductor = createConductor({ store, config, logger });
 *     await conductor.start();        // API uses conductor.client
 *     await conductor.stop({ timeoutMs: 60_000 });
 */
import { Value } from 'typebox/value';
import { ConductorConfig } from '../config/conductor.js';
import { defaultInspectorConfig, type InspectorConfig } from '../config/inspector.js';
import type { IpmiConfig } from '../config/ipmi.js';
import { ImagesConfig } from '../config/images.js';
import { AgentClient } from '../drivers/agent/client.js';
import { checkInspectorConfig } from '../inspection/process.js';
import type { InspectionRuleInput } from '../inspection/rules/index.js';
import type { RedfishConfig } from '../config/redfish.js';
import type { Store } from '../db/store.js';
import { createDriverRegistry, type DriverRegistry } from '../drivers/registry.js';
import { createDriverResources } from '../drivers/resources.js';
import type { NetworkBootEnvironment } from '../drivers/network-boot/environment.js';
import { systemClock, type Clock } from '../shared/clock.js';
import { messageOf } from '../shared/errors.js';
import type { Logger } from '../shared/logger.js';
import type { ConductorClient } from './client.js';
import { agentImageFor, releaseAgentImage } from './agent-image.js';
import { RingCache, type ConductorContext } from './context.js';
import { watchAgentCommand } from './flows/agent-resume.js';
import { ConductorStopping } from './flows/run.js';
import { LocalConductorClient } from './local-client.js';
import { heartbeatOnce, runHeartbeat } from './periodics/heartbeat.js';
import { runDeadConductorCheck } from './periodics/dead-conductors.js';
import { runInspectorStatusCheck } from './periodics/inspector-status.js';
import { runPowerFailureRecovery, runPowerSync } from './periodics/power-sync.js';
import { runWaitTimeouts } from './periodics/timeouts.js';
import { recoverHost } from './recovery.js';
import { createWorkerPool } from './workers.js';

export interface ConductorOptions {
  store: Store;
  /** The `conductor` config group; missing keys take their defaults. */
  config: Partial<ConductorConfig>;
  logger: Logger;
  clock?: Clock;
  /** Driver registry to use instead of the one built from `enabled_hardware_types` (tests inject failing drivers); the conductor closes it on stop. */
  registry?: DriverRegistry;
  /** The `inspector` config group; missing keys take their defaults. */
  inspector?: Partial<InspectorConfig>;
  /** Inspection rules every inspection runs, from `inspector.built_in_rules` (see `main/built-in-rules.ts`). */
  builtInRules?: readonly InspectionRuleInput[];
  /** Settings of the BMC drivers (the `redfish` and `ipmi` config groups). */
  drivers?: { redfish?: Partial<RedfishConfig>; ipmi?: Partial<IpmiConfig>; boot?: NetworkBootEnvironment | null };
  /** The `images` config group; missing keys take their defaults. */
  images?: Partial<ImagesConfig>;
  /** The agent client to use (tests pass one with a short timeout). */
  agent?: AgentClient;
  /** Skip the periodic tasks (tests drive them by hand through `context`). Default true. */
  periodics?: boolean;
}

export interface Conductor {
  readonly hostname: string;
  readonly client: ConductorClient;
  /** Internals for periodic tasks and tests. */
  readonly context: ConductorContext;
  /** Registers, recovers the previous life's nodes and starts the periodic tasks. */
  start(): Promise<void>;
  /**
   * Stops accepting work, waits up to `timeoutMs` for running work, abandons the rest (their nodes go to
   * their failure state with last_error), releases every lock of this host and unregisters.
   */
  stop(opts?: { timeoutMs?: number }): Promise<void>;
}

export function createConductor(opts: ConductorOptions): Conductor {
  const config = Object.freeze(Value.Default(ConductorConfig, structuredClone(opts.config)) as ConductorConfig);
  const inspector = Object.freeze(defaultInspectorConfig(opts.inspector));
  // Unknown hooks or a bad CIDR map stop start-up, not the first inspection.
  checkInspectorConfig(inspector);
  const logger = opts.logger.child({ component: 'conductor', host: config.hostname });
  const ctx: ConductorContext = {
    store: opts.store,
    config,
    inspector,
    builtInRules: Object.freeze([...(opts.builtInRules ?? [])]),
    logger,
    clock: opts.clock ?? systemClock,
    hostname: config.hostname,
    registry:
      opts.registry ??
      createDriverRegistry(config.enabled_hardware_types, undefined, undefined, createDriverResources({ ...opts.drivers, inspector }, (e) => {
        logger.warn({ bmc: e.bmc, attempt: e.attempt, delay_ms: e.delayMs }, `BMC ${e.bmc}: ${e.operation} failed (attempt ${e.attempt}: ${e.reason}); retrying in ${e.delayMs} ms`);
      })),
    pool: createWorkerPool(config.workers, logger, config.hostname),
    rings: new RingCache(opts.store),
    conductorId: null,
    boot: opts.drivers?.boot ?? null,
    images: Object.freeze(Value.Default(ImagesConfig, structuredClone(opts.images ?? {})) as ImagesConfig),
    agent: {
      client: opts.agent ?? new AgentClient(),
      image: (node, signal) => agentImageFor(ctx, node, signal),
      releaseImage: (node) => releaseAgentImage(ctx, node),
      watchCommand: (node, command) => watchAgentCommand(ctx, node, command),
    },
    powerFailures: new Map(),
  };
  const client = new LocalConductorClient(ctx);
  const periodics = new AbortController();
  const loops: Promise<void>[] = [];
  let started = false;
  let stopped = false;

  return {
    hostname: config.hostname,
    client,
    context: ctx,
    async start() {
      if (started) return;
      started = true;
      const failed = await recoverHost(ctx, ctx.hostname);
      if (failed.length > 0) logger.warn({ nodes: failed }, `failed ${failed.length} node(s) left in flight by a previous run of ${ctx.hostname}`);
      const row = await ctx.store.conductors.register(ctx.hostname, config.conductor_group, ctx.registry.hardwareTypes());
      ctx.conductorId = row.id;
      await heartbeatOnce(ctx);
      if (opts.periodics !== false) {
        loops.push(
          runHeartbeat(ctx, periodics.signal),
          runPowerSync(ctx, periodics.signal),
          runPowerFailureRecovery(ctx, periodics.signal),
          runWaitTimeouts(ctx, periodics.signal),
          runDeadConductorCheck(ctx, periodics.signal),
        );
        // Without an external inspector no node can wait on one (the interface refuses to start), so nothing to poll.
        if (ctx.inspector.service_url !== '') loops.push(runInspectorStatusCheck(ctx, periodics.signal));
      }
      logger.info({ hardware_types: ctx.registry.hardwareTypes(), workers: config.workers }, `conductor ${ctx.hostname} started`);
    },
    async stop({ timeoutMs = config.graceful_shutdown_timeout_s * 1000 } = {}) {
      if (stopped) return;
      stopped = true;
      ctx.pool.close();
      periodics.abort();
      await Promise.allSettled(loops);
      if (!(await ctx.pool.drain(timeoutMs))) {
        logger.warn({ running: ctx.pool.running }, `abandoning ${ctx.pool.running} running operation(s)`);
        ctx.pool.abortAll(new ConductorStopping(ctx.hostname));
        await ctx.pool.drain(10_000);
      }
      await ctx.registry.close();
      if (!started) return;
      try {
        await recoverHost(ctx, ctx.hostname);
        await ctx.store.conductors.unregister(ctx.hostname);
      } catch (err) {
        logger.error({ err }, `conductor stop: cleanup failed: ${messageOf(err)}`);
      }
      logger.info(`conductor ${ctx.hostname} stopped`);
    },
  };
}
