/**
 * Power-state sync: reads the power of every unlocked node this conductor manages (not in maintenance,
 * not enrolled, not waiting on an agent) and, as Ironic with `force_power_state_during_sync` off, makes
 * the database follow the hardware, recording each mismatch in the history.
 */
import { S, WAIT_STATES } from '../../domain/states.js';
import { IngotError, messageOf } from '../../shared/errors.js';
import type { ConductorContext } from '../context.js';
import { Task } from '../task.js';
import { periodicLoop } from './loop.js';
import { eachNode } from './nodes.js';

/** One sync round; returns the UUIDs whose power_state changed. */
export async function syncPowerStatesOnce(ctx: ConductorContext): Promise<string[]> {
  const changed: string[] = [];
  for await (const node of eachNode(ctx, { maintenance: false })) {
    if (node.reservation !== null || node.provision_state === S.ENROLL || WAIT_STATES.includes(node.provision_state)) continue;
    if (ctx.rings.hostFor(node) !== ctx.hostname) continue;
    try {
      const reader = await Task.acquire(ctx, node.uuid, { shared: true });
      const actual = await reader.driver.power.getPowerState(reader.driverTask());
      if (actual === reader.node.power_state) continue;
      const task = await Task.acquire(ctx, node.uuid);
      try {
        const before = task.node.power_state;
        if (before === actual || task.node.maintenance) continue;
        task.set({ power_state: actual });
        await task.save();
        if (before !== null) {
          await task.record('power', `power state mismatch: the database said ${before}, the hardware says ${actual}; database updated`, 'WARNING', null);
        }
        changed.push(node.uuid);
      } finally {
        await task.release();
      }
    } catch (err) {
      if (err instanceof IngotError && (err.code === 'NodeLocked' || err.code === 'NodeNotFound')) continue;
      ctx.logger.warn({ err, node: node.uuid }, `power sync of node ${node.uuid} failed: ${messageOf(err)}`);
    }
  }
  return changed;
}

export function runPowerSync(ctx: ConductorContext, signal: AbortSignal): Promise<void> {
  return periodicLoop('power-sync', ctx.config.sync_power_state_interval_s * 1000, () => syncPowerStatesOnce(ctx), signal, ctx.logger);
}
