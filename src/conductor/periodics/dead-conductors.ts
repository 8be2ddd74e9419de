/** Dead conductors: online but silent longer than `heartbeat_timeout_s`; their locks and in-flight work are cleaned up. */
import { isoTime } from '../../shared/clock.js';
import type { ConductorContext } from '../context.js';
import { recoverHost } from '../recovery.js';
import { periodicLoop } from './loop.js';

/** One round; returns the hostnames found dead. */
export async function reapDeadConductorsOnce(ctx: ConductorContext): Promise<string[]> {
  const stale = await ctx.store.conductors.listStale(isoTime(ctx.clock.now() - ctx.config.heartbeat_timeout_s * 1000));
  const dead = stale.map((c) => c.hostname).filter((h) => h !== ctx.hostname);
  for (const host of dead) await recoverHost(ctx, host);
  return dead;
}

export function runDeadConductorCheck(ctx: ConductorContext, signal: AbortSignal): Promise<void> {
  return periodicLoop('dead-conductors', ctx.config.heartbeat_interval_s * 1000, () => reapDeadConductorsOnce(ctx), signal, ctx.logger);
}
