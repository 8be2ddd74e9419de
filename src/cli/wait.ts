/**
 * `--wait`: polls a node after an action until it settles, printing each observed state change on
 * stderr (`node-1: deploying → wait call-back (2.1 s)`) and the outcome (`node-1: active after 12.3 s`).
 * Polls quickly at first (100 ms, growing by half up to 1 s) so that fast operations return fast.
 * A failure state, a hold, a state other than the expected one, or the timeout end in a
 * {@link WaitError} carrying the node's `last_error`.
 */
import type { WireNode } from '../protocol/client/wire.js';
import { fail } from '../shared/errors.js';
import { WaitError } from './api-error.js';
import type { RunContext } from './context.js';
import { nodePath } from './node-crud.js';

/** What to wait for. */
export interface WaitSpec {
  /** `provision` follows provision_state/target_provision_state; `power` the power pair. */
  kind: 'provision' | 'power';
  /** The state the action should end in; `undefined` accepts any settled state. */
  expected?: string | undefined;
  /** Accept ending in a failure state (for `abort`). */
  acceptFailure?: boolean;
  /** Seconds before giving up; 0 waits forever. */
  timeoutSeconds: number;
}

const FIRST_INTERVAL_MS = 100;
const MAX_INTERVAL_MS = 1000;
const POLL_FIELDS = ['uuid', 'name', 'provision_state', 'target_provision_state', 'provision_updated_at', 'power_state', 'target_power_state', 'last_error'];

/** Reads the node as `--wait` needs it (with `fields=` when the microversion allows it). */
export function pollNode(ctx: RunContext, ident: string): Promise<WireNode> {
  const query = ctx.client.minor >= 8 ? { fields: POLL_FIELDS.join(',') } : {};
  return ctx.client.get<WireNode>(nodePath(ident), query);
}

/** `--wait` / `--wait N` as seconds (0 = no timeout), or `undefined` when not waiting. */
export function waitSeconds(value: string | boolean | undefined): number | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return 0;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw fail('waitOptionInvalid', { value });
  return n;
}

/** True for states a node falls into when an operation fails. */
export function isFailureState(state: string | null | undefined): boolean {
  return state === 'error' || (typeof state === 'string' && state.endsWith(' failed'));
}

/**
 * Polls `ident` until it settles per `spec`. `before` is the node as read just before the action (its
 * states tell a settled result apart from a node the server has not started moving yet).
 */
export async function waitForNode(ctx: RunContext, ident: string, before: WireNode, spec: WaitSpec): Promise<WireNode> {
  const { clock } = ctx;
  const start = clock.now();
  const elapsed = () => ((clock.now() - start) / 1000).toFixed(1);
  const stateOf = (n: WireNode) => (spec.kind === 'provision' ? n.provision_state : n.power_state) ?? null;
  const targetOf = (n: WireNode) => (spec.kind === 'provision' ? n.target_provision_state : n.target_power_state) ?? null;
  const why = (n: WireNode) => (n.last_error ? `: ${n.last_error}` : '');

  let previous = stateOf(before);
  let moved = false;
  let interval = FIRST_INTERVAL_MS;
  for (;;) {
    const node = await pollNode(ctx, ident);
    const state = stateOf(node);
    const target = targetOf(node);
    if (state !== previous) {
      ctx.err(`${ident}: ${previous ?? 'None'} → ${state ?? 'None'} (${elapsed()} s)\n`);
      previous = state;
    }
    moved ||=
      state !== stateOf(before) ||
      target !== targetOf(before) ||
      (spec.kind === 'provision' && node.provision_updated_at !== before.provision_updated_at);

    if (isFailureState(state) && (spec.kind === 'power' || moved)) {
      if (!spec.acceptFailure) throw new WaitError(`${ident}: ${state} after ${elapsed()} s${why(node)}`);
      ctx.err(`${ident}: ${state} after ${elapsed()} s\n`);
      return node;
    }
    if (spec.kind === 'provision' && moved && typeof state === 'string' && state.endsWith(' hold')) {
      throw new WaitError(`${ident}: ${state} after ${elapsed()} s (a step holds the node; 'ingot node unhold' continues)`);
    }
    const settled = target === null && (spec.kind === 'power' ? state === spec.expected || moved : moved);
    if (settled) {
      if (spec.expected !== undefined && state !== spec.expected) {
        throw new WaitError(`${ident}: ended in ${state ?? 'None'}, not ${spec.expected}, after ${elapsed()} s${why(node)}`);
      }
      ctx.err(`${ident}: ${state ?? 'None'} after ${elapsed()} s\n`);
      return node;
    }
    if (spec.timeoutSeconds > 0 && clock.now() - start >= spec.timeoutSeconds * 1000) {
      throw new WaitError(`${ident}: timed out after ${elapsed()} s in ${state ?? 'None'}${target ? ` (heading for ${target})` : ''}${why(node)}`);
    }
    await clock.sleep(interval);
    interval = Math.min(MAX_INTERVAL_MS, Math.round(interval * 1.5));
  }
}
