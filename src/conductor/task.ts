/**
 * A conductor task: lock → load → act → persist → release (Ironic's task_manager). An exclusive task
 * holds the node's reservation (`store.nodes.reserve`, NodeLocked 409 when taken); a shared task only
 * reads; a task may also take over the reservation of a conductor that is gone (recovery). Every
 * provision-state change goes through the pure `transition()` of the state machine and is recorded in
 * the node history with the time spent in the previous state. Drivers get the task's
 * {@link Task.driverTask} view: the node, its ports, its driver (power guarded for disable_power_off),
 * the conductor's settings and agent services.
 */
import type { NodeChanges } from '../db/store.js';
import type { Node, PowerState } from '../domain/node.js';
import { STATES, targetAfter, transition, type ProvisionEvent, type ProvisionState } from '../domain/states.js';
import type { DiscoveredPort, DriverTask, HistorySeverity } from '../drivers/interfaces/base.js';
import { withoutAgent } from '../drivers/agent/token.js';
import type { Driver } from '../drivers/registry.js';
import { isoTime } from '../shared/clock.js';
import { fail, IngotError, messageOf } from '../shared/errors.js';
import { nodeSecretValues as nodeSecrets, scrubValues } from '../shared/mask.js';
import { currentRequestContext } from '../shared/request-context.js';
import type { ConductorContext } from './context.js';
import { keepConsoleLog } from './console-log.js';
import { refusingPowerOff } from './power-guard.js';

export interface ProcessOptions {
  /** `last_error` to write (null clears it); left unchanged when undefined. */
  lastError?: string | null;
  /** Overrides target_provision_state (e.g. `manageable` during manual cleaning). */
  target?: ProvisionState | null;
}

export class Task {
  private current: Node;
  private pending: NodeChanges = {};
  private released = false;
  private loaded: Driver | null = null;
  /** Ports the driver reported during this task (inspection); the flow that asked creates them. */
  readonly discoveredPorts: DiscoveredPort[] = [];

  private constructor(
    readonly ctx: ConductorContext,
    node: Node,
    readonly shared: boolean,
    /** The conductor whose reservation this task holds: this one, or one that is gone ({@link Task.takeOver}). */
    private readonly holder: string = ctx.hostname,
  ) {
    this.current = node;
  }

  /**
   * Locks (unless `shared`) and loads the node and its driver. With `retryMs`, a lock held by someone
   * else is tried again for that long (Ironic's `node_locked_retry_attempts`) before NodeLocked.
   */
  static async acquire(ctx: ConductorContext, ident: string, opts: { shared?: boolean; retryMs?: number } = {}): Promise<Task> {
    if (opts.shared) return new Task(ctx, await ctx.store.nodes.get(ident), true).load();
    const until = Date.now() + (opts.retryMs ?? 0);
    let node: Node;
    for (;;) {
      try {
        node = await ctx.store.nodes.reserve(ident, ctx.hostname);
        break;
      } catch (err) {
        if (!(err instanceof IngotError && err.code === 'NodeLocked') || Date.now() >= until) throw err;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    try {
      return new Task(ctx, node, false).load();
    } catch (err) {
      await ctx.store.nodes.release(node.uuid, ctx.hostname);
      throw err;
    }
  }

  /**
   * Takes over `node`, reserved by conductor `host` that is gone (recovery): the task writes under that
   * reservation and releases it. The driver is loaded only when used (the host may have served hardware
   * types this conductor does not).
   */
  static takeOver(ctx: ConductorContext, node: Node, host: string): Task {
    if (node.reservation !== host) throw fail('nodeNotReservedBy', { node: node.uuid, host });
    return new Task(ctx, node, false, host);
  }

  /** The node's driver; its power interface refuses to power off a node with disable_power_off (power-guard.ts). */
  get driver(): Driver {
    if (!this.loaded) {
      const driver = this.ctx.registry.load(this.current);
      this.loaded = { ...driver, power: refusingPowerOff(driver.power, () => this.current, this.ctx.logger) };
    }
    return this.loaded;
  }

  /** Loads the driver now: acquiring a node whose driver this conductor lacks fails at once. */
  private load(): this {
    void this.driver;
    return this;
  }

  /** The node with the changes made so far. */
  get node(): Node {
    return this.current;
  }

  /** Records changes to persist at the next `save()` / `process()`. */
  set(changes: NodeChanges): void {
    if (this.shared) throw fail('sharedTaskWrite', { node: this.current.uuid });
    if (typeof changes.last_error === 'string') {
      changes = { ...changes, last_error: scrubValues(changes.last_error, nodeSecrets({ ...this.current, ...changes } as Node)) };
    }
    this.current = { ...this.current, ...changes } as Node;
    Object.assign(this.pending, changes);
  }

  /** Writes pending changes (guarded by the reservation the task holds). */
  async save(): Promise<Node> {
    if (Object.keys(this.pending).length === 0) return this.current;
    const changes = this.pending;
    this.pending = {};
    const saved = await this.ctx.store.nodes.update(this.current.uuid, changes, { reservation: this.holder });
    this.current = saved;
    return saved;
  }

  /** The driver's view of this task (see `DriverTask`); `update` feeds `set`. */
  driverTask(signal: AbortSignal = new AbortController().signal): DriverTask {
    const current = () => this.current;
    const driver = () => this.driver;
    const { store, config, clock, logger, agent } = this.ctx;
    return {
      get node() {
        return current();
      },
      get driver() {
        return driver();
      },
      ports: () => store.ports.list({ node_id: this.current.id }, { limit: 1000 }),
      signal,
      shared: this.shared,
      config,
      clock,
      logger,
      agent,
      update: (changes) => this.set(changes as NodeChanges),
      save: async () => {
        await this.save();
      },
      record: (eventType, event, severity, durationMs) => this.record(eventType, event, severity, durationMs),
      setPower: (state) => this.setPower(state),
      reportPorts: (ports) => {
        this.discoveredPorts.push(...ports);
      },
    };
  }

  /**
   * Moves the node by `event` (InvalidStateRequested when the machine does not allow it), sets
   * provision_updated_at and target_provision_state, persists and records the change in the history.
   */
  async process(event: ProvisionEvent, opts: ProcessOptions = {}): Promise<ProvisionState> {
    const from = this.current.provision_state;
    const to = transition(from, event);
    if (!to) {
      throw fail('InvalidStateRequested', { action: event, node: this.current.uuid, state: from });
    }
    const now = this.ctx.clock.now();
    const since = this.current.provision_updated_at ? Date.parse(this.current.provision_updated_at) : NaN;
    const target = opts.target !== undefined ? opts.target : targetAfter(event, to, this.current.target_provision_state);
    const changes: NodeChanges = { provision_state: to, target_provision_state: target, provision_updated_at: isoTime(now) };
    // ERROR for failures and aborts into a failure state; an abort back to a stable state (service failed -> active) is not one.
    const failed = event === 'fail' || (event === 'abort' && !STATES[to].stable);
    // A failed flow's agent is forgotten, as Ironic's error handlers' `wipe_token_and_url`: its token opens nothing any more.
    const forgotten = failed ? withoutAgent(this.current.driver_internal_info) : null;
    if (forgotten !== null) changes.driver_internal_info = forgotten;
    const consoleLog = failed ? await keepConsoleLog(this.ctx, this.current) : null;
    const consoleNote = !consoleLog ? '' : 'kept' in consoleLog ? ` (console log: ${consoleLog.kept})` : ` (${consoleLog.refused})`;
    if (opts.lastError !== undefined) changes.last_error = opts.lastError && consoleLog && 'refused' in consoleLog ? `${opts.lastError}${consoleNote}` : opts.lastError;
    this.set(changes);
    await this.save();
    const why = `${failed && opts.lastError ? `: ${opts.lastError}` : ''}${consoleNote}`;
    await this.record('provisioning', `${from} -> ${to} (${event})${why}`, failed ? 'ERROR' : 'INFO', Number.isFinite(since) ? Math.max(0, now - since) : null);
    this.ctx.logger.info({ node: this.current.uuid, from, to, event }, `node ${this.current.uuid}: ${from} -> ${to} (${event})`);
    return to;
  }

  /** Persists a power change and records it in the history. */
  async setPower(state: PowerState, opts: { lastError?: string | null } = {}): Promise<void> {
    const before = this.current.power_state;
    const changes: NodeChanges = { power_state: state, target_power_state: null };
    if (opts.lastError !== undefined) changes.last_error = opts.lastError;
    this.set(changes);
    await this.save();
    if (before !== state) await this.record('power', `${before ?? 'None'} -> ${state}`, 'INFO', null);
  }

  /** Adds a history entry for this node (the node's secrets masked in `event`). */
  async record(eventType: string, event: string, severity: HistorySeverity, durationMs: number | null): Promise<void> {
    try {
      await this.ctx.store.history.record({
        // Who asked for the work, as Ironic records the user of the request context (none for the agent, periodics, noauth).
        node_id: this.current.id, severity, event_type: eventType, event: scrubValues(event, nodeSecrets(this.current)), conductor: this.ctx.hostname, user: currentRequestContext()?.user ?? null, duration_ms: durationMs,
      });
    } catch (err) {
      this.ctx.logger.warn({ err, node: this.current.uuid }, `could not record history: ${messageOf(err)}`);
    }
  }

  /** Releases the lock (idempotent; a deleted node has nothing to release). */
  async release(): Promise<void> {
    if (this.shared || this.released) return;
    this.released = true;
    try {
      await this.ctx.store.nodes.release(this.current.uuid, this.holder);
    } catch (err) {
      if (err instanceof IngotError && err.code === 'NodeNotFound') return;
      throw err;
    }
  }

  /** Marks the lock as gone with the node (after delete). */
  forgetLock(): void {
    this.released = true;
  }
}

/** Runs `fn` in a task and always releases it. */
export async function withTask<T>(ctx: ConductorContext, ident: string, opts: { shared?: boolean; retryMs?: number }, fn: (task: Task) => Promise<T>): Promise<T> {
  const task = await Task.acquire(ctx, ident, opts);
  try {
    return await fn(task);
  } finally {
    await task.release();
  }
}

