/**
 * Finds the node an inspection payload belongs to, as Ironic's `continue_inspection` and the legacy
 * inspector do: by the MAC addresses of its interfaces (the node's ports) and by its BMC address (the
 * host of any `*_address` in a node's driver_info), among the nodes being inspected. A payload may also
 * name its node (`node_uuid`), which the MACs or the BMC address must then confirm unless the node has
 * neither ports nor a BMC address yet. No match, or matches that disagree, are errors that say what was tried.
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
  const byMac = new Map<number, string[]>();
  for (const mac of macs) {
    for (const port of await ctx.store.ports.list({ address: mac }, { limit: 10 })) byMac.set(port.node_id, [...(byMac.get(port.node_id) ?? []), `MAC ${mac}`]);
  }
  const byBmc = new Map<number, Node>();
  if (bmc.size > 0) {
    for await (const node of eachNode(ctx, { provision_states: [...INSPECTING] })) {
      if (bmcHosts(node).some((h) => bmc.has(h))) byBmc.set(node.id, node);
    }
  }
  const tried = { macs: macs.length ? macs.join(', ') : '(none)', bmcs: bmc.size ? [...bmc].join(', ') : '(none)' };

  if (keys.nodeUuid) {
    const named = await ctx.store.nodes.get(keys.nodeUuid);
    if (byMac.size > 0 && !byMac.has(named.id)) {
      throw fail('inspectionNamesOtherNode', { node: named.uuid, keys: [...byMac.values()].flat().join(', ') });
    }
    // Anyone may list node UUIDs: a node that has ports or a BMC address must be recognised by them too.
    if (!byMac.has(named.id) && !bmcHosts(named).some((h) => bmc.has(h))) {
      const known = (await ctx.store.ports.list({ node_id: named.id }, { limit: 1 })).length > 0 || bmcHosts(named).length > 0;
      if (known) throw fail('inspectionNoMatch', tried);
    }
    return checkInspecting(named);
  }
  // MACs name one machine; a BMC address may be shared (a chassis manager, an emulator) and only
  // decides when no MAC is known, or contradicts the MACs when it points at exactly one other node.
  if (byMac.size > 1) {
    const which = await Promise.all([...byMac].map(async ([id, by]) => `${(await ctx.store.nodes.getById(id)).uuid} (${by.join(', ')})`));
    throw fail('inspectionMatchesNodes', { count: byMac.size, nodes: which.join('; ') });
  }
  if (byMac.size === 1) {
    const [id, by] = [...byMac][0] as [number, string[]];
    const other = byBmc.size === 1 && !byBmc.has(id) ? ([...byBmc.values()][0] as Node) : null;
    if (other) {
      const node = await ctx.store.nodes.getById(id);
      throw fail('inspectionMacAndBmcDisagree', { node: node.uuid, keys: by.join(', '), other: other.uuid, bmc: String(bmcHosts(other).find((h) => bmc.has(h))) });
    }
    return checkInspecting(byBmc.get(id) ?? (await ctx.store.nodes.getById(id)));
  }
  if (byBmc.size === 1) return checkInspecting([...byBmc.values()][0] as Node);
  if (byBmc.size > 1) {
    throw fail('inspectionBmcShared', { count: byBmc.size, nodes: [...byBmc.values()].map((n) => n.uuid).join(', '), ...tried });
  }
  throw fail('inspectionNoMatch', tried);
}

function checkInspecting(node: Node): Node {
  if (!INSPECTING.includes(node.provision_state)) {
    throw fail('nodeNotInspecting', { node: node.uuid, state: node.provision_state });
  }
  return node;
}
