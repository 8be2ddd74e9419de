/**
 * Finds the node an inspection payload belongs to, as Ironic's `continue_inspection` and the legacy
 * inspector do: by the MAC addresses of its interfaces (the node's ports) and by its BMC address (the
 * host of any `*_address` in a node's driver_info), among the nodes being inspected. A payload may also
 * name its node (`node_uuid`). No match, or matches that disagree, are errors that say what was tried.
 */
import type { Node } from '../domain/node.js';
import { S } from '../domain/states.js';
import { fail } from '../shared/errors.js';
import type { ConductorContext } from './context.js';
import { eachNode } from './periodics/nodes.js';

/** What a payload tells about its machine. */
export interface LookupKeys {
  macs: readonly string[];
  bmcAddresses: readonly (string | null | undefined)[];
  /** A node named by the caller (`?node_uuid=`), checked against the keys when they match a node too. */
  nodeUuid?: string;
}

const INSPECTING: readonly string[] = [S.INSPECTING, S.INSPECTWAIT];

/** BMC addresses that say nothing (the agent reports these when the machine has no BMC it can read). */
const EMPTY_ADDRESSES = new Set(['', '0.0.0.0', '::', '::/0']);

/** The host of a driver_info address value: a bare host, `host:port`, or a URL. */
export function addressHost(value: string): string {
  const v = value.trim().toLowerCase();
  try {
    if (v.includes('://')) return new URL(v).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return v;
  }
  const bracketed = /^\[([^\]]+)\]/.exec(v);
  if (bracketed) return bracketed[1] as string;
  // host:port, but not a bare IPv6 address.
  return (v.match(/:/g) ?? []).length === 1 ? (v.split(':')[0] as string) : v;
}

/** The BMC hosts a node's driver_info names (`redfish_address`, `ipmi_address`, …). */
export function bmcHosts(node: Pick<Node, 'driver_info'>): string[] {
  const hosts: string[] = [];
  for (const [key, value] of Object.entries(node.driver_info)) {
    if (key.endsWith('_address') && typeof value === 'string' && value.trim() !== '') hosts.push(addressHost(value));
  }
  return hosts;
}

/** Usable BMC addresses of a payload, normalised. */
export function meaningfulAddresses(addresses: readonly (string | null | undefined)[]): string[] {
  return addresses.filter((a): a is string => typeof a === 'string' && !EMPTY_ADDRESSES.has(a.trim())).map((a) => addressHost(a));
}

/**
 * The node being inspected that `keys` identify. Throws InspectionLookupFailed (404) when none does,
 * InvalidState when the machine's node is not being inspected, and InspectionLookupAmbiguous (409)
 * when the keys point at different nodes.
 */
export async function lookupInspectedNode(ctx: ConductorContext, keys: LookupKeys): Promise<Node> {
  const macs = [...new Set(keys.macs.map((m) => m.toLowerCase()))];
  const bmc = new Set(meaningfulAddresses(keys.bmcAddresses));
  const found = new Map<number, { node?: Node; by: string[] }>();
  const note = (id: number, by: string, node?: Node) => {
    const entry = found.get(id) ?? { by: [] };
    entry.by.push(by);
    if (node) entry.node = node;
    found.set(id, entry);
  };

  for (const mac of macs) {
    for (const port of await ctx.store.ports.list({ address: mac }, { limit: 10 })) note(port.node_id, `MAC ${mac}`);
  }
  if (bmc.size > 0) {
    for await (const node of eachNode(ctx, { provision_states: [...INSPECTING] })) {
      const hit = bmcHosts(node).find((h) => bmc.has(h));
      if (hit) note(node.id, `BMC address ${hit}`, node);
    }
  }
  if (keys.nodeUuid) {
    const named = await ctx.store.nodes.get(keys.nodeUuid);
    if (found.size > 0 && !found.has(named.id)) {
      throw fail('InspectionLookupAmbiguous', `The inspection data names node ${named.uuid}, but its ${describe(found)} belong to another node.`);
    }
    return checkInspecting(named);
  }

  const tried = `MACs ${macs.length ? macs.join(', ') : '(none)'}; BMC addresses ${bmc.size ? [...bmc].join(', ') : '(none)'}`;
  if (found.size === 0) throw fail('InspectionLookupFailed', `No node being inspected matches the inspection data (${tried}).`);
  const nodes: Node[] = [];
  for (const [id, entry] of found) nodes.push(entry.node ?? (await ctx.store.nodes.getById(id)));
  if (nodes.length > 1) {
    const which = nodes.map((n) => `${n.uuid} (${(found.get(n.id)?.by ?? []).join(', ')})`).join('; ');
    throw fail('InspectionLookupAmbiguous', `The inspection data matches ${nodes.length} nodes: ${which}. Fix the ports or BMC addresses so that one node matches.`);
  }
  return checkInspecting(nodes[0] as Node);
}

function describe(found: Map<number, { by: string[] }>): string {
  return [...found.values()].flatMap((e) => e.by).join(', ');
}

function checkInspecting(node: Node): Node {
  if (!INSPECTING.includes(node.provision_state)) {
    throw fail('InvalidState', `Node ${node.uuid} is not being inspected (provision state ${node.provision_state}); start an inspection first.`);
  }
  return node;
}
