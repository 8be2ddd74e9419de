/** The conductor heartbeat: records liveness and refreshes the hash rings from the conductors table. */
import { isoTime } from '../../shared/clock.js';
import type { ConductorContext } from '../context.js';
import { periodicLoop } from './loop.js';

export async function heartbeatOnce(ctx: ConductorContext): Promise<void> {
  await ctx.store.conductors.touch(ctx.hostname);
  await ctx.rings.refresh(isoTime(ctx.clock.now() - ctx.config.heartbeat_timeout_s * 1000));
}

export function runHeartbeat(ctx: ConductorContext, signal: AbortSignal): Promise<void> {
  return periodicLoop('heartbeat', ctx.config.heartbeat_interval_s * 1000, () => heartbeatOnce(ctx), signal, ctx.logger);
}
