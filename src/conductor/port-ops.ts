/**
 * Port and port group changes, each under the exclusive lock of the node they belong to (so they never
 * race with a flow that reads the node's ports).
 */
import type { PortChanges, PortCreate, PortgroupChanges, PortgroupCreate } from '../db/store.js';
import type { Node, Port, Portgroup } from '../domain/node.js';
import { S } from '../domain/states.js';
import { fail, IngotError } from '../shared/errors.js';
import type { ConductorContext } from './context.js';
import { withTask, type Task } from './task.js';

async function nodeUuid(ctx: ConductorContext, nodeId: number): Promise<string> {
  return (await ctx.store.nodes.getById(nodeId)).uuid;
}

async function checkPortgroup(ctx: ConductorContext, node: Node, portgroupId: number | null | undefined): Promise<void> {
  if (portgroupId === null || portgroupId === undefined) return;
  const groups = await ctx.store.portgroups.list({ node_id: node.id }, { limit: 10_000 });
  if (!groups.some((g) => g.id === portgroupId)) {
    throw fail('portgroupOfOtherNode');
  }
}

/** States in which a port's connectivity or a port group's node may change without maintenance (Ironic). */
const CONNECTIVITY_STATES: readonly string[] = [S.ENROLL, S.INSPECTING, S.INSPECTWAIT, S.MANAGEABLE];
const CONNECTIVITY_FIELDS = ['portgroup_id', 'pxe_enabled', 'local_link_connection', 'physical_network'] as const;

function changed<T extends object>(before: T, changes: Partial<T>, key: keyof T): boolean {
  return key in changes && JSON.stringify(changes[key]) !== JSON.stringify(before[key]);
}

/** The VIF a port is bound to and for what, as Ironic's `get_attached_vif`. */
function attachedVif(port: Port): [string, string] | null {
  for (const [key, use] of [['tenant_vif_port_id', 'tenant'], ['cleaning_vif_port_id', 'cleaning'], ['provisioning_vif_port_id', 'provisioning'], ['rescuing_vif_port_id', 'rescuing'], ['inspection_vif_port_id', 'inspecting'], ['servicing_vif_port_id', 'servicing']] as const) {
    const vif = port.internal_info[key];
    if (typeof vif === 'string' && vif !== '') return [vif, use];
  }
  return null;
}

export async function createPort(ctx: ConductorContext, values: PortCreate): Promise<Port> {
  return withTask(ctx, await nodeUuid(ctx, values.node_id), {}, async (task) => {
    await checkPortgroup(ctx, task.node, values.portgroup_id);
    return ctx.store.ports.create(values);
  });
}

export async function updatePort(ctx: ConductorContext, uuid: string, changes: PortChanges): Promise<Port> {
  const port = await ctx.store.ports.get(uuid);
  return withTask(ctx, await nodeUuid(ctx, port.node_id), {}, async (task) => {
    const node = task.node;
    if ((node.provision_state === S.ACTIVE || node.instance_uuid) && changed(port, changes, 'address') && !node.maintenance) {
      throw fail('portAddressLocked', { port: port.uuid, node: node.uuid });
    }
    const connectivity = CONNECTIVITY_FIELDS.filter((f) => changed(port, changes, f));
    if (connectivity.length > 0 && !(CONNECTIVITY_STATES.includes(node.provision_state) || node.maintenance)) {
      throw fail('portConnectivityLocked', {
        port: port.uuid, fields: CONNECTIVITY_FIELDS.join(', '), node: node.uuid, states: CONNECTIVITY_STATES.join(', '), state: node.provision_state,
      });
    }
    if (changes.node_id !== undefined && changes.node_id !== port.node_id) {
      const target = await ctx.store.nodes.getById(changes.node_id);
      await checkPortgroup(ctx, target, changes.portgroup_id ?? null);
      if (changes.portgroup_id === undefined) changes = { ...changes, portgroup_id: null };
    } else if (changes.portgroup_id !== undefined) {
      await checkPortgroup(ctx, node, changes.portgroup_id);
    }
    return ctx.store.ports.update(port.uuid, changes);
  });
}

export async function destroyPort(ctx: ConductorContext, uuid: string): Promise<void> {
  const port = await ctx.store.ports.get(uuid);
  await withTask(ctx, await nodeUuid(ctx, port.node_id), {}, async (task) => {
    const vif = attachedVif(port);
    if (vif && !task.node.maintenance) {
      throw fail('portBoundToVif', { port: port.uuid, vif: vif[0], use: vif[1] });
    }
    await ctx.store.ports.delete(port.uuid);
  });
}

export async function createPortgroup(ctx: ConductorContext, values: PortgroupCreate): Promise<Portgroup> {
  return withTask(ctx, await nodeUuid(ctx, values.node_id), {}, () => ctx.store.portgroups.create(values));
}

export async function updatePortgroup(ctx: ConductorContext, uuid: string, changes: PortgroupChanges): Promise<Portgroup> {
  const group = await ctx.store.portgroups.get(uuid);
  return withTask(ctx, await nodeUuid(ctx, group.node_id), {}, async (task) => {
    const node = task.node;
    if (changes.node_id !== undefined && changes.node_id !== group.node_id) {
      if (!CONNECTIVITY_STATES.includes(node.provision_state) && !node.maintenance) {
        throw fail('portgroupMoveState', { portgroup: group.uuid, node: node.uuid, states: CONNECTIVITY_STATES.join(', ') });
      }
      const members = await ctx.store.ports.list({ portgroup_id: group.id }, { limit: 1 });
      if (members.length > 0) {
        throw fail('portgroupMoveHasPorts', { portgroup: group.uuid, node: node.uuid });
      }
    }
    return ctx.store.portgroups.update(group.uuid, changes);
  });
}

export async function destroyPortgroup(ctx: ConductorContext, uuid: string): Promise<void> {
  const group = await ctx.store.portgroups.get(uuid);
  await withTask(ctx, await nodeUuid(ctx, group.node_id), {}, async () => {
    const members = await ctx.store.ports.list({ portgroup_id: group.id }, { limit: 1 });
    if (members.length > 0) {
      throw fail('PortgroupNotEmpty', { portgroup: group.uuid });
    }
    await ctx.store.portgroups.delete(group.uuid);
  });
}

/**
 * Creates the ports a driver found (out-of-band inspection) that the node, already locked by `task`,
 * does not have. A MAC that belongs to another node is left there and reported. Returns a summary for
 * the node's history.
 */
export async function addDiscoveredPorts(task: Task): Promise<string | null> {
  const found = task.discoveredPorts;
  if (found.length === 0) return null;
  const { ctx, node } = task;
  const have = new Set((await ctx.store.ports.list({ node_id: node.id }, { limit: 10_000 })).map((p) => p.address));
  const created: string[] = [];
  const elsewhere: string[] = [];
  for (const port of found) {
    const address = port.address.toLowerCase();
    if (have.has(address)) continue;
    have.add(address);
    try {
      await ctx.store.ports.create({ node_id: node.id, address, pxe_enabled: port.pxe_enabled });
      created.push(address);
    } catch (err) {
      if (!(err instanceof IngotError && err.code === 'MACAlreadyExists')) throw err;
      elsewhere.push(address);
    }
  }
  const parts = [`${found.length} port(s) found`, `${created.length} created${created.length ? ` (${created.join(', ')})` : ''}`];
  if (elsewhere.length) parts.push(`${elsewhere.length} skipped: already a port of another node (${elsewhere.join(', ')})`);
  return parts.join('; ');
}
