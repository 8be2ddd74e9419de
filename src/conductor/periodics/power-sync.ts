/**
 * Power-state sync: reads the power of every unlocked node this conductor manages (not in maintenance,
 * not enrolled, not waiting on an agent), a bounded number at once and at most a few per BMC. A mismatch
 * is recorded in the history and either written to the database (the default: the hardware is right) or,
 * with `force_power_state_during_sync`, corrected on the hardware (never for a node with
 * `disable_power_off`, whose record follows the hardware). A node whose BMC fails
 * `power_state_sync_max_retries` reads in a row goes into maintenance with fault `power failure`; the
 * recovery round takes it out again once its BMC answers.
 */
import { getMaxListeners, setMaxListeners } from 'node:events';
import type { Node, PowerState } from '../../domain/node.js';
import { S, WAIT_STATES } from '../../domain/states.js';
import { bmcKey } from '../../drivers/bmc-key.js';
import { IngotError, messageOf } from '../../shared/errors.js';
import { KeyedLimiter } from '../../shared/limiter.js';
import type { ConductorContext } from '../context.js';
import { Task, withTask } from '../task.js';
import { periodicLoop } from './loop.js';
import { eachNode } from './nodes.js';

export const POWER_FAILURE = 'power failure';

type Read = { ok: true; state: PowerState } | { ok: false; error: unknown } | null;

function skipped(err: unknown): boolean {
  return err instanceof IngotError && (err.code === 'NodeLocked' || err.code === 'NodeNotFound');
}

/** Reads a node's power under a shared lock; null when the node is busy or gone. */
async function readPower(ctx: ConductorContext, uuid: string, signal: AbortSignal): Promise<Read> {
  let reader: Task;
  try {
    reader = await Task.acquire(ctx, uuid, { shared: true });
  } catch (err) {
    if (skipped(err)) return null;
    throw err;
  }
  try {
    return { ok: true, state: await reader.driver.power.getPowerState(reader.driverTask(signal)) };
  } catch (error) {
    return { ok: false, error };
  }
}

/** Runs `each` over the nodes matching `filter` that this conductor manages, with the sync's limits. */
async function forEachManaged(
  ctx: ConductorContext,
  filter: { maintenance: boolean; fault?: string },
  signal: AbortSignal,
  each: (node: Node) => Promise<void>,
): Promise<void> {
  // Every read in flight listens to the round's signal (several listeners each: requests, waits).
  setMaxListeners(Math.max(getMaxListeners(signal), ctx.config.sync_power_state_workers * 8), signal);
  const limiter = new KeyedLimiter(ctx.config.sync_power_state_workers, ctx.config.sync_power_state_per_bmc);
  let batch: Promise<void>[] = [];
  for await (const node of eachNode(ctx, filter)) {
    if (node.reservation !== null || node.target_power_state !== null) continue;
    if (ctx.rings.hostFor(node) !== ctx.hostname) continue;
    batch.push(limiter.run(bmcKey(node), () => each(node)));
    // One page of reads in flight at a time keeps memory flat on a large fleet.
    if (batch.length >= 500) {
      await Promise.all(batch);
      batch = [];
    }
  }
  await Promise.all(batch);
}

async function mismatch(ctx: ConductorContext, node: Node, actual: PowerState, signal: AbortSignal): Promise<boolean> {
  return withTask(ctx, node.uuid, {}, async (task) => {
    const recorded = task.node.power_state;
    if (recorded === actual || task.node.maintenance) return false;
    const force = ctx.config.force_power_state_during_sync && (recorded === 'power on' || recorded === 'power off');
    // NOTE: like Ironic's do_sync_power_state, a node with disable_power_off is never forced, in either
    // direction: the hardware is taken as right and only the record follows it.
    if (force && !task.node.disable_power_off) {
      await task.driver.power.setPowerState(task.driverTask(signal), recorded, ctx.config.power_state_change_timeout_s);
      await task.save();
      await task.record('power', `power state mismatch: Ingot recorded ${recorded}, the hardware was ${actual}; hardware set back to ${recorded}`, 'WARNING', null);
      return false;
    }
    task.set({ power_state: actual });
    await task.save();
    if (recorded !== null) {
      const why = force ? ' (not forced back: disable_power_off is set)' : '';
      await task.record('power', `power state mismatch: Ingot recorded ${recorded}, the hardware says ${actual}; record updated${why}`, 'WARNING', null);
    }
    return true;
  });
}

async function readFailed(ctx: ConductorContext, node: Node, error: unknown): Promise<void> {
  const count = (ctx.powerFailures.get(node.uuid) ?? 0) + 1;
  const max = ctx.config.power_state_sync_max_retries;
  ctx.logger.warn({ err: error, node: node.uuid, failures: count }, `power sync of node ${node.uuid} failed (${count}/${max}): ${messageOf(error)}`);
  if (count < max) {
    ctx.powerFailures.set(node.uuid, count);
    return;
  }
  ctx.powerFailures.delete(node.uuid);
  await withTask(ctx, node.uuid, {}, async (task) => {
    if (task.node.maintenance) return;
    const reason = `Power state sync failed ${count} times in a row: ${messageOf(error)}`;
    task.set({
      maintenance: true,
      fault: POWER_FAILURE,
      maintenance_reason: reason,
      last_error: `${reason}. Ingot takes the node out of maintenance when its BMC answers again; check the BMC address and credentials in driver_info.`,
    });
    await task.save();
    await task.record('power', `maintenance on (fault "${POWER_FAILURE}"): ${reason}`, 'ERROR', null);
  });
}

/** One sync round; returns the UUIDs whose recorded power_state changed. */
export async function syncPowerStatesOnce(ctx: ConductorContext, signal: AbortSignal = new AbortController().signal): Promise<string[]> {
  const changed: string[] = [];
  await forEachManaged(ctx, { maintenance: false }, signal, async (node) => {
    if (node.provision_state === S.ENROLL || WAIT_STATES.includes(node.provision_state)) return;
    try {
      const read = await readPower(ctx, node.uuid, signal);
      if (read === null) return;
      if (!read.ok) return await readFailed(ctx, node, read.error);
      ctx.powerFailures.delete(node.uuid);
      if (read.state !== node.power_state && (await mismatch(ctx, node, read.state, signal))) changed.push(node.uuid);
    } catch (err) {
      if (!skipped(err)) ctx.logger.warn({ err, node: node.uuid }, `power sync of node ${node.uuid} failed: ${messageOf(err)}`);
    }
  });
  return changed;
}

/** One recovery round over nodes in maintenance for a power failure; returns the UUIDs taken out of maintenance. */
export async function recoverPowerFailuresOnce(ctx: ConductorContext, signal: AbortSignal = new AbortController().signal): Promise<string[]> {
  const recovered: string[] = [];
  await forEachManaged(ctx, { maintenance: true, fault: POWER_FAILURE }, signal, async (node) => {
    try {
      const read = await readPower(ctx, node.uuid, signal);
      if (read === null || !read.ok) return;
      const done = await withTask(ctx, node.uuid, {}, async (task) => {
        if (!task.node.maintenance || task.node.fault !== POWER_FAILURE) return false;
        task.set({ maintenance: false, fault: null, maintenance_reason: null, last_error: null, power_state: read.state });
        await task.save();
        await task.record('power', `the BMC answers again (${read.state}); maintenance for "${POWER_FAILURE}" cleared`, 'INFO', null);
        return true;
      });
      if (done) recovered.push(node.uuid);
    } catch (err) {
      if (!skipped(err)) ctx.logger.warn({ err, node: node.uuid }, `power failure recovery of node ${node.uuid} failed: ${messageOf(err)}`);
    }
  });
  return recovered;
}

export function runPowerSync(ctx: ConductorContext, signal: AbortSignal): Promise<void> {
  return periodicLoop('power-sync', ctx.config.sync_power_state_interval_s * 1000, () => syncPowerStatesOnce(ctx, signal), signal, ctx.logger);
}

export function runPowerFailureRecovery(ctx: ConductorContext, signal: AbortSignal): Promise<void> {
  return periodicLoop('power-failure-recovery', ctx.config.power_failure_recovery_interval_s * 1000, () => recoverPowerFailuresOnce(ctx, signal), signal, ctx.logger);
}
