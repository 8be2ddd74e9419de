/**
 * Lookup and heartbeats, paced as ironic-python-agent paces them:
 *
 * - Lookup (`ironic_api_client.py` `lookup_node`): retried until `timeoutMs` with random exponential
 *   backoff (tenacity `wait_random_exponential(min=interval, max=60)`: a wait drawn from
 *   U(interval, min(60 s, interval·2^(n-1)))); a 409 (the node is locked) adds a pause of 5, then 10,
 *   then 30 s.
 * - Heartbeats (`agent.py` `IronicPythonAgentHeartbeater`): the first at once, then every
 *   `heartbeat_timeout × U(0.3, 0.6)` (90–180 s with Ironic's default of 300 s); after a failure or a
 *   409, again within 5–10 s; and a forced heartbeat when an asynchronous command finishes, no sooner
 *   than 5 s after the previous one, so the conductor hears of the result at once.
 */
import { sleep } from '../shared/clock.js';
import { fail, messageOf } from '../shared/errors.js';
import { retry } from '../shared/retry.js';
import type { HeartbeatRequest, LookupResponse } from '../protocol/agent/lookup.js';
import type { IronicClient } from './ironic-client.js';

/** Options of {@link lookupNode}. */
export interface LookupOptions {
  /** MAC addresses of the machine. */
  addresses: readonly string[];
  nodeUuid?: string | null;
  /** Give up after this long (IPA `ipa-lookup-timeout`, 600 s). */
  timeoutMs: number;
  /** First wait (IPA `ipa-lookup-interval`, 1 s). */
  intervalMs: number;
  /** Longest wait (60 s). */
  maxIntervalMs?: number;
  /** Pauses after successive 409 answers (5, 10, 30 s). */
  conflictPausesMs?: readonly number[];
  signal?: AbortSignal;
  log?: (message: string) => void;
}

/** A lookup that found no node yet (an error, a 409, an answer without the node): worth another try. */
class LookupMiss extends Error {}

/** Looks the node up until it is found; throws DriverOperationError when the time is up. */
export async function lookupNode(client: IronicClient, opts: LookupOptions): Promise<LookupResponse> {
  const pauses = opts.conflictPausesMs ?? [5000, 10_000, 30_000];
  let conflicts = 0;
  try {
    return await retry(async () => {
      const result = await client.lookupOnce(opts.addresses, opts.nodeUuid);
      if (result.kind === 'found') return result.answer;
      if (result.kind === 'conflict') {
        const pause = pauses[Math.min(conflicts++, pauses.length - 1)] ?? 0;
        opts.log?.(`lookup: the node is locked (${result.reason}); waiting ${pause / 1000} s`);
        await sleep(pause, opts.signal);
      }
      throw new LookupMiss(result.reason);
    }, {
      backoff: { initialMs: opts.intervalMs, maxMs: opts.maxIntervalMs ?? 60_000, jitter: 'full' },
      deadline: Date.now() + opts.timeoutMs,
      retryable: (err) => err instanceof LookupMiss,
      onRetry: (attempt, err, wait) => opts.log?.(`lookup at ${client.apiUrl} failed (attempt ${attempt}: ${messageOf(err)}); retrying in ${(wait / 1000).toFixed(1)} s`),
      signal: opts.signal,
    });
  } catch (err) {
    if (!(err instanceof LookupMiss)) throw err;
    throw fail('agentLookupFailed', { url: client.apiUrl, addresses: opts.addresses.join(','), seconds: Math.round(opts.timeoutMs / 1000), reason: err.message });
  }
}

/** Options of {@link startHeartbeats}. */
export interface HeartbeatOptions {
  nodeUuid: string;
  /** The heartbeat body (token, callback URL, version); read before every heartbeat. */
  body: () => HeartbeatRequest;
  /** `config.heartbeat_timeout` of the lookup, seconds. */
  heartbeatTimeoutS: number;
  /** Shortest gap before a forced heartbeat, and the base of the error retry (IPA: 5 s). */
  minIntervalMs?: number;
  signal?: AbortSignal;
  log?: (message: string) => void;
  /** Told after each heartbeat attempt (tests, metrics). */
  onHeartbeat?: (ok: boolean, error: string | null) => void;
}

/** A running heartbeat loop. */
export interface Heartbeats {
  /** Asks for a heartbeat soon (an asynchronous command finished). */
  force(): void;
  /** Stops the loop and waits for it. */
  stop(): Promise<void>;
  /** Heartbeats sent successfully so far. */
  sent(): number;
}

const uniform = (a: number, b: number) => a + Math.random() * (b - a);

/** Starts heartbeating: the first heartbeat at once. */
export function startHeartbeats(client: IronicClient, opts: HeartbeatOptions): Heartbeats {
  const minInterval = opts.minIntervalMs ?? 5000;
  const stopper = new AbortController();
  const signal = opts.signal ? AbortSignal.any([opts.signal, stopper.signal]) : stopper.signal;
  let interval = 0;
  let previous = 0;
  let forced = false;
  let ok = 0;
  let wake: (() => void) | null = null;

  async function beat(): Promise<void> {
    try {
      await client.heartbeat(opts.nodeUuid, opts.body());
      ok++;
      forced = false;
      interval = opts.heartbeatTimeoutS * 1000 * uniform(0.3, 0.6);
      opts.onHeartbeat?.(true, null);
    } catch (err) {
      if (signal.aborted) return;
      const why = messageOf(err);
      opts.log?.(`heartbeat failed: ${why}`);
      interval = minInterval * uniform(1, 2);
      opts.onHeartbeat?.(false, why);
    }
    previous = Date.now();
  }

  const loop = (async () => {
    while (!signal.aborted) {
      const elapsed = Date.now() - previous;
      if (elapsed >= interval || (forced && elapsed >= minInterval)) {
        await beat();
        continue;
      }
      const wait = forced ? previous + minInterval - Date.now() : interval - elapsed;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          wake = null;
          resolve();
        };
        const timer = setTimeout(done, Math.max(0, wait));
        signal.addEventListener('abort', done, { once: true });
        wake = done;
      });
    }
  })();

  return {
    force() {
      forced = true;
      wake?.();
    },
    async stop() {
      stopper.abort();
      await loop;
    },
    sent: () => ok,
  };
}
