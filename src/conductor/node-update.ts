/**
 * Ironic's rules for which node fields may change when (conductor `update_node`): driver and
 * interfaces only in enroll/inspecting/manageable/available or maintenance; nothing but maintenance
 * while a transition is in progress; no re-association of a node that has an instance; `protected` only
 * in active/rescue; `retired` not in available; reasons only with their flag.
 */
import type { NodeChanges } from '../db/store.js';
import { INTERFACES, type Node } from '../domain/node.js';
import { INTERFACE_UPDATE_STATES, S, STABLE_STATES, UPDATE_ALLOWED_STATES } from '../domain/states.js';
import { interfaceField, type DriverRegistry, type InterfaceField } from '../drivers/registry.js';
import { fail } from '../shared/errors.js';

/** Fields only the conductor's own operations write. */
const NOT_UPDATABLE = ['provision_state', 'target_provision_state', 'provision_updated_at', 'reservation', 'traits', 'target_power_state'] as const;

/** Fields that may change at any time (maintenance handling). */
const ALWAYS_UPDATABLE = new Set(['maintenance', 'maintenance_reason', 'fault']);

/** Checks `changes` against `node` and returns the changes to write (with derived ones, e.g. defaults). */
export function checkNodeUpdate(registry: DriverRegistry, node: Node, changes: NodeChanges): NodeChanges {
  const out: NodeChanges = { ...changes };
  for (const key of NOT_UPDATABLE) {
    if (key in out) throw fail('nodeFieldReadOnly', { field: key });
  }
  const changed = Object.keys(out).filter((k) => JSON.stringify(out[k as keyof NodeChanges]) !== JSON.stringify(node[k as keyof Node]));
  const maintenance = out.maintenance ?? node.maintenance;
  const state = node.provision_state;

  if (!node.maintenance && !maintenance && !STABLE_STATES.includes(state) && !UPDATE_ALLOWED_STATES.includes(state)) {
    if (changed.some((k) => !ALWAYS_UPDATABLE.has(k))) {
      throw fail('nodeInTransition', { node: node.uuid });
    }
  }

  const ifaceKeys = ['driver', ...INTERFACES.map(interfaceField)];
  const ifaceChanged = changed.filter((k) => ifaceKeys.includes(k));
  if (ifaceChanged.length > 0) {
    if (!INTERFACE_UPDATE_STATES.includes(state) && !node.maintenance) {
      throw fail('nodeInterfaceUpdateState', { node: node.uuid, field: ifaceChanged[0] as string, states: INTERFACE_UPDATE_STATES.join(', ') });
    }
    const driver = out.driver ?? node.driver;
    const driverChanged = driver !== node.driver;
    // Ironic's reset_interfaces (default on a driver change): interfaces not named in the request
    // return to the new hardware type's defaults.
    const requested: Partial<Record<InterfaceField, string | null>> = {};
    for (const iface of INTERFACES) {
      const field = interfaceField(iface);
      if (field in out) requested[field] = out[field] ?? null;
      else requested[field] = driverChanged ? null : node[field];
    }
    Object.assign(out, registry.resolve(driver, requested, out.conductor_group ?? node.conductor_group));
  }

  if (out.instance_uuid && node.instance_uuid && out.instance_uuid !== node.instance_uuid) {
    throw fail('NodeAssociated', { node: node.uuid, instance: node.instance_uuid });
  }

  const isProtected = out.protected ?? node.protected;
  if (out.protected === true && !node.protected && state !== S.ACTIVE && state !== S.RESCUE) {
    throw fail('nodeProtectState', { node: node.uuid, state });
  }
  if (!isProtected) {
    if (out.protected_reason) throw fail('reasonWithoutFlag', { field: 'protected_reason', node: node.uuid, flag: 'protected' });
    if (node.protected_reason !== null || out.protected === false) out.protected_reason = null;
  }

  const retired = out.retired ?? node.retired;
  if (out.retired === true && !node.retired && state === S.AVAILABLE) {
    throw fail('nodeRetireState', { node: node.uuid, state });
  }
  if (!retired) {
    if (out.retired_reason) throw fail('reasonWithoutFlag', { field: 'retired_reason', node: node.uuid, flag: 'retired' });
    if (node.retired_reason !== null || out.retired === false) out.retired_reason = null;
  }

  if (out.maintenance === false) {
    out.maintenance_reason = null;
    out.fault = null;
  } else if (!maintenance && out.maintenance_reason) {
    throw fail('reasonWithoutFlag', { field: 'maintenance_reason', node: node.uuid, flag: 'maintenance' });
  }
  return out;
}
