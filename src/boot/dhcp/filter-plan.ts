/**
 * What the PXE filter should hold, from the nodes and ports (Ironic's `pxe_filter/service.py` sync,
 * with ironic-inspector's `[pxe_filter]deny_unknown_macs`). Pure: the conductor's periodic feeds it and
 * passes the result to `PxeFilter.sync`.
 */
import type { FilterState } from './provider.js';

/** The facts a filter sync needs. */
export interface FilterPlanInput {
  ports: Iterable<{ address: string; node_id: number }>;
  /** Ids of the nodes whose machines may boot the inspection ramdisk (inspect wait, inspecting). */
  inspecting: ReadonlySet<number>;
  /** Unknown machines are enrolled when they boot (auto-discovery, `[inspector] auto_discovery`). */
  autoDiscovery: boolean;
  /** Never answer MACs of no port, even while an inspection runs. */
  denyUnknownMacs: boolean;
}

/**
 * Ports of inspected nodes are allowed, all other ports denied; unknown MACs are answered while any
 * inspection runs or discovery is on (a node may be enrolled without ports), unless denyUnknownMacs.
 */
export function planFilterSync(input: FilterPlanInput): FilterState {
  const allow: string[] = [];
  const deny: string[] = [];
  for (const port of input.ports) (input.inspecting.has(port.node_id) ? allow : deny).push(port.address);
  const openToUnknown = !input.denyUnknownMacs && (input.autoDiscovery || input.inspecting.size > 0);
  return { allow, deny, unknown: openToUnknown ? 'allow' : 'deny' };
}
