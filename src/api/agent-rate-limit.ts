/**
 * The rate limit of the public agent endpoints (lookup, heartbeat, `continue_inspection`, the legacy
 * inspector API's `/v1/continue`): they need no credentials, so each source address may send at most
 * `api.agent_rate_limit_per_minute` requests a minute to them, counted together, and is answered 429
 * beyond it. The counting is `@fastify/rate-limit`'s (an LRU of addresses, an IPv6 source counted by
 * its /64), registered for these routes only; the addresses of `api.agent_rate_limit_exempt` are not
 * counted (loopback by default: the simulated fleet and the benches run there).
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { ApiConfig } from '../config/api.js';
import { fail } from '../shared/errors.js';

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

/** An address as the exemption list compares it: an IPv4-mapped IPv6 address as its IPv4 form. */
const plainAddress = (ip: string) => ip.toLowerCase().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1');

/**
 * Registers the counting on `app` and returns the `onRequest` hook of the agent routes of `app` (one
 * count per address for all of them); a limit of 0 counts nothing.
 */
export function agentRateLimit(app: FastifyInstance, config: Pick<ApiConfig, 'agent_rate_limit_per_minute' | 'agent_rate_limit_exempt'>): onRequestAsyncHookHandler {
  const max = config.agent_rate_limit_per_minute;
  const exempt = new Set(config.agent_rate_limit_exempt.map(plainAddress));
  let limiter: Limiter | null = null;
  if (max > 0) {
    void app.register(rateLimit, { global: false });
    app.after(() => {
      limiter = app.createRateLimit({ max, timeWindow: 60_000 });
    });
  }
  return async (req: FastifyRequest, reply) => {
    if (limiter === null || exempt.has(plainAddress(req.ip))) return;
    const counted = await limiter(req);
    if (counted.isAllowed || !counted.isExceeded) return;
    void reply.header('retry-after', String(counted.ttlInSeconds));
    throw fail('agentRateLimited', { address: req.ip, max, seconds: counted.ttlInSeconds });
  };
}
