/**
 * Cleaning up after a conductor that is gone (this one after a crash, at start-up; another one that
 * stopped heartbeating; this one abandoning work on stop), as Ironic's `_check_orphan_nodes` /
 * `_fail_if_in_state`: each node it held takes a task over its lock; one in a busy state fails through
 * the task like every other failure (its failure state, last_error saying why, the history entry), a
 * pending power change is cleared, and the locks are released.
 */
import { STUCK_STATES_TREATED_AS_FAIL } from '../domain/states.js';
import { messageOf } from '../shared/errors.js';
import type { ConductorContext } from './context.js';
import { failureExtras } from './flows/phases.js';
import { abandonedMessage, failTask } from './flows/run.js';
import { Task } from './task.js';

/** Fails the in-flight work of `host` and releases its locks; returns the UUIDs of the failed nodes. */
export async function recoverHost(ctx: ConductorContext, host: string): Promise<string[]> {
  const failed: string[] = [];
  const nodes = await ctx.store.nodes.list({ reservation: host }, { limit: 100_000 });
  for (const node of nodes) {
    try {
      const task = Task.takeOver(ctx, node, host);
      if (STUCK_STATES_TREATED_AS_FAIL.includes(node.provision_state)) {
        await failTask(task, abandonedMessage(node.provision_state, host), failureExtras);
        failed.push(node.uuid);
        ctx.logger.warn({ node: node.uuid, host, from: node.provision_state, to: task.node.provision_state }, `node ${node.uuid}: work of conductor ${host} lost, now ${task.node.provision_state}`);
      } else if (node.target_power_state !== null) {
        task.set({ target_power_state: null, last_error: `Pending power operation was aborted: the conductor ${host} stopped. Check the power state and retry.` });
        await task.save();
      }
    } catch (err) {
      ctx.logger.error({ err, node: node.uuid, host }, `could not recover node ${node.uuid}: ${messageOf(err)}`);
    }
  }
  const released = await ctx.store.nodes.releaseAll(host);
  if (released.length > 0) ctx.logger.info({ host, count: released.length }, `released ${released.length} lock(s) of conductor ${host}`);
  return failed;
}
