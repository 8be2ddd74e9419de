/**
 * Status of introspections delegated to an external ironic-inspector (the `inspector` inspect interface):
 * every `[inspector] status_check_period_s`, each node in `inspect wait` with that interface that this
 * conductor manages is looked up at the inspector (`GET /v1/introspection/{uuid}`), as Ironic's
 * `_periodic_check_result` / `_check_status` do. While the inspector works the node is left alone.
 * Once it finished, the inspector has already written the node's properties and created its ports
 * through Ingot's API; the conductor locks the node, stores the processed data as the node's inventory
 * when the inspector keeps it, powers the machine off (`inspection_power_off`, as Ironic's
 * `[inspector]power_off`; a node with `disable_power_off` is rebooted instead) and moves it to manageable. An error reported by the inspector (or an
 * introspection the inspector no longer knows) ends in `inspect failed` with the inspector's message.
 * An unreachable inspector is logged and recorded in the node's history, and asked again next round;
 * `inspect_wait_timeout_s` bounds the wait as for every inspection.
 */
import type { JsonObject, Node } from '../../domain/node.js';
import { S } from '../../domain/states.js';
import type { IntrospectionStatus } from '../../drivers/inspector/client.js';
import { isInspectorInspect, type InspectorInspect } from '../../drivers/inspector/inspect.js';
import { powerOffOrReboot } from '../../drivers/power-actions.js';
import { isoTime } from '../../shared/clock.js';
import { fail, IngotError, messageOf } from '../../shared/errors.js';
import { KeyedLimiter } from '../../shared/limiter.js';
import type { ConductorContext } from '../context.js';
import { describeFailure, failureExtras } from '../flows/phases.js';
import { failTask, startFlow } from '../flows/run.js';
import { Task } from '../task.js';
import { periodicLoop } from './loop.js';
import { eachNode } from './nodes.js';

/** Status requests in flight at once (one inspector serves them all). */
const CONCURRENT_CHECKS = 8;

/** What one round saw for a node. */
export interface InspectorCheck {
  uuid: string;
  /**
   * `running`: the inspector is still at work; `finished`/`failed`: the node was handed to a worker to
   * finish or fail; `unreachable`: the status could not be read (asked again next round); `skipped`: the
   * node was busy, gone or changed meanwhile.
   */
  outcome: 'running' | 'finished' | 'failed' | 'unreachable' | 'skipped';
}

type Verdict = { kind: 'running' } | { kind: 'finished'; status: IntrospectionStatus } | { kind: 'failed'; error: string };

/** Consecutive unreadable statuses per node, per conductor (history is written once per streak). */
const streaks = new WeakMap<ConductorContext, Map<string, number>>();

/** One round; returns what it saw per node. */
export async function checkInspectorStatusOnce(ctx: ConductorContext, signal: AbortSignal = new AbortController().signal): Promise<InspectorCheck[]> {
  const failures = streaks.get(ctx) ?? new Map<string, number>();
  streaks.set(ctx, failures);
  const limiter = new KeyedLimiter(CONCURRENT_CHECKS, CONCURRENT_CHECKS);
  const checks: Promise<InspectorCheck>[] = [];
  const seen = new Set<string>();
  for await (const node of eachNode(ctx, { provision_states: [S.INSPECTWAIT] })) {
    if (node.reservation !== null || ctx.rings.hostFor(node) !== ctx.hostname) continue;
    const inspect = inspectorOf(ctx, node);
    if (!inspect?.service) continue;
    seen.add(node.uuid);
    checks.push(limiter.run('inspector', () => checkNode(ctx, node, inspect, failures, signal)));
  }
  const results = await Promise.all(checks);
  for (const uuid of failures.keys()) if (!seen.has(uuid)) failures.delete(uuid);
  return results;
}

/** The node's inspect interface when it is the `inspector` one (null for others or a driver that no longer loads). */
function inspectorOf(ctx: ConductorContext, node: Node): InspectorInspect | null {
  try {
    const inspect = ctx.registry.load(node).inspect;
    return isInspectorInspect(inspect) ? inspect : null;
  } catch {
    return null;
  }
}

async function checkNode(ctx: ConductorContext, node: Node, inspect: InspectorInspect, failures: Map<string, number>, signal: AbortSignal): Promise<InspectorCheck> {
  const service = inspect.service;
  if (!service) return { uuid: node.uuid, outcome: 'skipped' };
  let verdict: Verdict;
  try {
    const status = await service.status(node.uuid, signal);
    if (status === null) {
      verdict = {
        kind: 'failed',
        error: `ironic-inspector at ${service.url} has no introspection of this node (HTTP 404); it may have lost its database or been pointed at another one`,
      };
    } else if (status.error) verdict = { kind: 'failed', error: `ironic-inspector inspection failed: ${oneLine(status.error)}` };
    else if (status.finished) verdict = { kind: 'finished', status };
    else verdict = { kind: 'running' };
  } catch (err) {
    if (signal.aborted) return { uuid: node.uuid, outcome: 'skipped' };
    await unreachable(ctx, node, err, failures);
    return { uuid: node.uuid, outcome: 'unreachable' };
  }
  failures.delete(node.uuid);
  if (verdict.kind === 'running') return { uuid: node.uuid, outcome: 'running' };
  try {
    const handed = await settle(ctx, node, verdict);
    return { uuid: node.uuid, outcome: handed ? verdict.kind : 'skipped' };
  } catch (err) {
    ctx.logger.warn({ err, node: node.uuid }, `inspector status of node ${node.uuid}: could not end the inspection: ${messageOf(err)}`);
    return { uuid: node.uuid, outcome: 'skipped' };
  }
}

/** Logs every failed read; records the first of a streak in the node's history. */
async function unreachable(ctx: ConductorContext, node: Node, err: unknown, failures: Map<string, number>): Promise<void> {
  const count = (failures.get(node.uuid) ?? 0) + 1;
  failures.set(node.uuid, count);
  const text = `could not read the introspection status (attempt ${count}): ${messageOf(err)} Ingot asks again every ${ctx.inspector.status_check_period_s} s until inspect_wait_timeout_s (${ctx.config.inspect_wait_timeout_s} s) ends the inspection.`;
  ctx.logger.warn({ err, node: node.uuid, failures: count }, `inspector status of node ${node.uuid}: ${text}`);
  if (count > 1) return;
  try {
    await ctx.store.history.record({ node_id: node.id, severity: 'WARNING', event_type: 'inspection', event: text, conductor: ctx.hostname, user: null, duration_ms: null });
  } catch (e) {
    ctx.logger.warn({ err: e, node: node.uuid }, `could not record history: ${messageOf(e)}`);
  }
}

/**
 * Locks the node and hands the end of the inspection to a worker; false when the node is busy, gone, no
 * longer in the wait that was checked, or no worker is free (all looked at again next round).
 */
async function settle(ctx: ConductorContext, seen: Node, verdict: Exclude<Verdict, { kind: 'running' }>): Promise<boolean> {
  const { uuid } = seen;
  let task: Task;
  try {
    task = await Task.acquire(ctx, uuid);
  } catch (err) {
    if (err instanceof IngotError && (err.code === 'NodeLocked' || err.code === 'NodeNotFound')) return false;
    throw err;
  }
  let handedOver = false;
  try {
    const inspect = task.driver.inspect;
    // A node that moved meanwhile (aborted and inspected again, say) waits on another introspection.
    const moved = task.node.provision_updated_at !== seen.provision_updated_at;
    if (moved || task.node.provision_state !== S.INSPECTWAIT || !isInspectorInspect(inspect)) return false;
    let slot;
    try {
      slot = ctx.pool.reserve(`inspector ${verdict.kind} ${uuid}`);
    } catch (err) {
      if (err instanceof IngotError && (err.code === 'NoFreeConductorWorkers' || err.code === 'ConductorUnavailable')) return false;
      throw err;
    }
    startFlow(task, slot, `inspector ${verdict.kind} ${uuid}`, {
      describe: (err) => describeFailure(task, err),
      onFailure: failureExtras,
      run: (signal) => (verdict.kind === 'finished' ? finish(task, inspect, verdict.status, signal) : failed(task, verdict.error, signal)),
    });
    handedOver = true;
    return true;
  } finally {
    if (!handedOver) await task.release();
  }
}

/** The inspector finished: keep its data, power off, manageable. */
async function finish(task: Task, inspect: InspectorInspect, status: IntrospectionStatus, signal: AbortSignal): Promise<void> {
  const { ctx } = task;
  await storeData(task, inspect, signal);
  if (ctx.config.inspection_power_off) {
    try {
      await powerOffOrReboot(task.driverTask(signal), 'at the end of inspection');
    } catch (err) {
      if (signal.aborted) throw err;
      // Ironic's clean_up: a failed power off after inspection fails the inspection.
      throw fail('inspectionPowerOffFailed', { reason: messageOf(err) }, { cause: err });
    }
  }
  task.set({ inspection_finished_at: isoTime(ctx.clock.now()) });
  await task.record('inspection', `ironic-inspector at ${inspect.service?.url ?? '?'} finished the introspection${status.finished_at ? ` at ${status.finished_at}` : ''}; properties and ports were written by the inspector`, 'INFO', null);
  await task.process('done', { lastError: null });
}

/** Stores the processed data as the node's inventory when the inspector keeps it (`[processing]store_data`). */
async function storeData(task: Task, inspect: InspectorInspect, signal: AbortSignal): Promise<void> {
  const { ctx, node } = task;
  try {
    const data = await inspect.service?.data(node.uuid, signal);
    if (!data) {
      await task.record('inspection', 'ironic-inspector keeps no introspection data ([processing]store_data = none): the inventory is not stored in Ingot', 'INFO', null);
      return;
    }
    const { inventory, ...pluginData } = data;
    if (typeof inventory !== 'object' || inventory === null || Array.isArray(inventory)) {
      await task.record('inspection', 'ironic-inspector returned introspection data without an inventory: nothing stored', 'WARNING', null);
      return;
    }
    await ctx.store.inventories.put(node.id, inventory as JsonObject, pluginData as JsonObject);
  } catch (err) {
    if (signal.aborted) throw err;
    // The inspection itself succeeded (the node has its properties); missing data is not worth failing it.
    await task.record('inspection', `the introspection data could not be stored: ${messageOf(err)}`, 'WARNING', null);
  }
}

/** The inspector reported an error: power off (best effort, as Ironic's error handler), inspect failed. */
async function failed(task: Task, error: string, signal: AbortSignal): Promise<void> {
  const { ctx } = task;
  let reason = error;
  if (ctx.config.inspection_power_off) {
    try {
      await powerOffOrReboot(task.driverTask(signal), 'after the failed inspection');
    } catch (err) {
      if (signal.aborted) throw err;
      reason = `${reason}; also unable to power off the node: ${messageOf(err)}`;
    }
  }
  await failTask(task, describeFailure(task, new Error(reason)), failureExtras);
}

function oneLine(text: string): string {
  return text.split('\n').map((l) => l.trim()).filter(Boolean).join('; ');
}

/** Runs the status check every `[inspector] status_check_period_s` until `signal` aborts. */
export function runInspectorStatusCheck(ctx: ConductorContext, signal: AbortSignal): Promise<void> {
  return periodicLoop('inspector-status', ctx.inspector.status_check_period_s * 1000, () => checkInspectorStatusOnce(ctx, signal), signal, ctx.logger);
}
