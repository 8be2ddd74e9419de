/**
 * The introspection status of the legacy ironic-inspector API, derived from the node's own inspection
 * fields: Ingot keeps no separate introspection records, so the node's provision state, inspection
 * timestamps and `last_error` are the whole truth.
 */
import type { Node } from '../../domain/node.js';

/** ironic-inspector's introspection states (`ironic_inspector/introspection_state.py`). */
export type IntrospectionState = 'starting' | 'waiting' | 'processing' | 'finished' | 'error' | 'aborting' | 'enrolling' | 'reapplying';

/** The status object of `GET /v1/introspection/{node_id}`. */
export interface IntrospectionStatus {
  uuid: string;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
  finished: boolean;
  state: IntrospectionState;
  links: { href: string; rel: string }[];
}

/** Inspect interfaces that boot the ramdisk and wait for its data (in-band inspection). */
const IN_BAND = new Set(['agent', 'inspector']);

/** True when the node was ever inspected (the inspector knows nothing of the others). */
export function wasIntrospected(node: Pick<Node, 'inspection_started_at'>): boolean {
  return node.inspection_started_at !== null;
}

/** Strips the trailing `Z`/milliseconds the inspector never sent (`2017-08-16T12:24:30`). */
function inspectorTime(iso: string | null): string | null {
  if (iso === null) return null;
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)/.exec(iso);
  return m ? (m[1] as string) : iso;
}

/** The state, finished flag and error of `node`'s latest inspection. */
export function introspectionState(node: Node): Pick<IntrospectionStatus, 'state' | 'finished' | 'error'> {
  switch (node.provision_state) {
    case 'inspecting':
      // NOTE: out-of-band inspection gathers and processes in this one step; in-band inspection is
      // also 'inspecting' while the ramdisk boots, before the wait, which the node does not tell apart
      // from processing the data afterwards (both are unfinished, which is what clients poll for).
      return { state: IN_BAND.has(node.inspect_interface ?? '') ? 'starting' : 'processing', finished: false, error: null };
    case 'inspect wait':
      return { state: 'waiting', finished: false, error: null };
    case 'inspect failed':
      return { state: 'error', finished: true, error: node.last_error ?? 'Inspection failed' };
    default:
      break;
  }
  if (node.inspection_finished_at !== null) return { state: 'finished', finished: true, error: null };
  // Started, left the inspection states, never finished: aborted or lost.
  return { state: 'error', finished: true, error: node.last_error ?? 'Introspection did not finish' };
}

/** The status object for `node`; `base` is the listener's base URL (no trailing slash). */
export function introspectionStatus(node: Node, base: string): IntrospectionStatus {
  return {
    uuid: node.uuid,
    started_at: inspectorTime(node.inspection_started_at),
    finished_at: inspectorTime(node.inspection_finished_at),
    ...introspectionState(node),
    links: [{ href: `${base}/v1/introspection/${node.uuid}`, rel: 'self' }],
  };
}
