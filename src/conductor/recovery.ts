/**
 * Cleaning up after a conductor that is gone (this one after a crash, at start-up; another one that
 * stopped heartbeating; this one abandoning work on stop): its nodes in busy states move to their
 * failure state with last_error saying why, pending power changes are cleared, and its locks released.
 */
import { failureStateOf, STUCK_STATES_TREATED_AS_FAIL, targetAfter } from '../domain/states.js';
import { isoTime } from '../shared/clock.js';
import { messageOf } from '../shared/errors.js';
import type { ConductorContext } from './context.js';
import { failureChanges } from './flows/phases.js';
import { abandonedMessage } from './flows/run.js';

/** Fails the in-flight work of `host` and releases its locks; returns the UUIDs of the failed nodes. */
export async function recoverHost(ctx: ConductorContext, host: string): Promise<string[]> {
  const failed: string[] = [];
  const nodes = await ctx.store.nodes.list({ reservation: host }, { limit: 100_000 });
  for (const node of nodes) {
    try {
      const now = ctx.clock.now();
      if (STUCK_STATES_TREATED_AS_FAIL.includes(node.provision_state)) {
        const to = failureStateOf(node.provision_state);
        if (!to) continue;
        const message = abandonedMessage(node.provision_state, host);
        await ctx.store.nodes.update(
          node.uuid,
          {
            provision_state: to,
            target_provision_state: targetAfter('fail', to, node.target_provision_state),
            provision_updated_at: isoTime(now),
            last_error: message,
            target_power_state: null,
            clean_step: {},
            deploy_step: {},
            service_step: {},
            ...failureChanges(node.provision_state),
          },
          { reservation: host },
        );
        const since = node.provision_updated_at ? Date.parse(node.provision_updated_at) : NaN;
        await ctx.store.history.record({
          node_id: node.id, severity: 'ERROR', event_type: 'provisioning', event: `${node.provision_state} -> ${to} (fail): ${message}`,
          conductor: ctx.hostname, user: null, duration_ms: Number.isFinite(since) ? Math.max(0, now - since) : null,
        });
        failed.push(node.uuid);
        ctx.logger.warn({ node: node.uuid, host, from: node.provision_state, to }, `node ${node.uuid}: work of conductor ${host} lost, now ${to}`);
      } else if (node.target_power_state !== null) {
        await ctx.store.nodes.update(
          node.uuid,
          { target_power_state: null, last_error: `Pending power operation was aborted: the conductor ${host} stopped. Check the power state and retry.` },
          { reservation: host },
        );
      }
    } catch (err) {
      ctx.logger.error({ err, node: node.uuid, host }, `could not recover node ${node.uuid}: ${messageOf(err)}`);
    }
  }
  const released = await ctx.store.nodes.releaseAll(host);
  if (released.length > 0) ctx.logger.info({ host, count: released.length }, `released ${released.length} lock(s) of conductor ${host}`);
  return failed;
}
