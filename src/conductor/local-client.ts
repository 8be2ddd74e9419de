/**
 * The in-process {@link ConductorClient}: what `ingot serve` hands to the API. Every change runs in a
 * conductor task (exclusive lock unless only reading); slow work runs in the worker pool. The contract's
 * request and answer types are those of the store and the drivers field for field, so they pass through
 * as they are (the compiler checks that they still agree).
 */
import {
  INTERFACES, type BootDevice, type BootMode, type InterfaceName, type JsonObject, type Node, type Port, type Portgroup, type VmediaDeviceType,
} from '../domain/node.js';
import { DELETE_ALLOWED_STATES, S, type ProvisionVerb } from '../domain/states.js';
import type { DriverInterface } from '../drivers/interfaces/base.js';
import type { HeartbeatRequest } from '../protocol/agent/lookup.js';
import { isoTime } from '../shared/clock.js';
import { fail, messageOf } from '../shared/errors.js';
import type {
  AgentLookup, BootDeviceState, ConductorClient, ConsoleState, DriverInfo, InterfaceValidation, NodeChanges, NodeCreate, NodeRingKey, PortChanges,
  PortCreate, PortgroupChanges, PortgroupCreate, PowerTarget, ProvisionOptions, VirtualMediaAttach, VirtualMediaInfo,
} from './client.js';
import type { ConductorContext } from './context.js';
import { agentHeartbeat, lookupAgentNode } from './agent-callbacks.js';
import { continueInspection } from './flows/inspection.js';
import { attachVirtualMedia, changeBootMode, changeSecureBoot, detachVirtualMedia, getVirtualMedia, injectNmi } from './flows/management.js';
import { changePowerState } from './flows/power.js';
import { doProvisionAction } from './flows/provision.js';
import { checkNodeUpdate } from './node-update.js';
import * as ports from './port-ops.js';
import { Task, withTask } from './task.js';
import { limitTraits, MAX_TRAITS } from './traits.js';

const CREATE_STATES = new Set<string>([S.ENROLL, S.AVAILABLE]);

export class LocalConductorClient implements ConductorClient {
  constructor(private readonly ctx: ConductorContext) {}

  async createNode(values: NodeCreate): Promise<Node> {
    const group = values.conductor_group ?? '';
    const fields = this.ctx.registry.resolve(values.driver, values, group);
    if (!this.ctx.rings.hostFor({ uuid: values.uuid ?? '', driver: values.driver, conductor_group: group })) {
      throw fail('noConductorForDriver', { driver: values.driver, group });
    }
    const state = values.provision_state ?? S.ENROLL;
    if (!CREATE_STATES.has(state)) throw fail('nodeCreateState', { state });
    return this.ctx.store.nodes.create({ ...values, ...fields, provision_state: state, provision_updated_at: values.provision_updated_at ?? isoTime(this.ctx.clock.now()) });
  }

  async updateNode(ident: string, changes: NodeChanges): Promise<Node> {
    return withTask(this.ctx, ident, {}, async (task) => {
      const before = task.node;
      const checked = checkNodeUpdate(this.ctx.registry, before, changes);
      task.set(checked);
      const saved = await task.save();
      if (checked.maintenance !== undefined && checked.maintenance !== before.maintenance) {
        await task.record('maintenance', checked.maintenance ? `maintenance set: ${checked.maintenance_reason ?? ''}`.trim() : 'maintenance unset', 'INFO', null);
      }
      return { ...saved, reservation: null };
    });
  }

  async destroyNode(ident: string): Promise<void> {
    const task = await Task.acquire(this.ctx, ident);
    try {
      const node = task.node;
      if (node.protected) throw fail('NodeProtected', { node: node.uuid });
      if (!node.maintenance && node.instance_uuid) throw fail('NodeAssociated', { node: node.uuid, instance: node.instance_uuid });
      const allowed = this.ctx.config.allow_deleting_available_nodes ? [...DELETE_ALLOWED_STATES, S.AVAILABLE] : [...DELETE_ALLOWED_STATES];
      if (!node.maintenance && !allowed.includes(node.provision_state)) {
        // The list is printed as Ironic prints it (a Python tuple), so messages match the reference.
        const valid = `(${allowed.map((s) => `'${s}'`).join(', ')})`;
        throw fail('nodeDeleteState', { node: node.uuid, state: node.provision_state, valid });
      }
      if (node.console_enabled) await task.driver.console.stopConsole(task.driverTask()).catch(() => undefined);
      await this.ctx.store.nodes.delete(node.uuid);
      task.forgetLock();
    } finally {
      await task.release();
    }
  }

  setPowerState(ident: string, target: PowerTarget, timeoutSeconds?: number): Promise<void> {
    return changePowerState(this.ctx, ident, target, timeoutSeconds);
  }

  doProvisionAction(ident: string, verb: ProvisionVerb, options: ProvisionOptions): Promise<void> {
    return doProvisionAction(this.ctx, ident, verb, options);
  }

  async validate(ident: string): Promise<Record<InterfaceName, InterfaceValidation>> {
    return withTask(this.ctx, ident, { shared: true }, async (task) => {
      const dt = task.driverTask();
      const out = {} as Record<InterfaceName, InterfaceValidation>;
      for (const iface of INTERFACES) {
        try {
          await (task.driver[iface] as DriverInterface).validate(dt);
          out[iface] = { result: true, reason: null };
        } catch (err) {
          out[iface] = { result: false, reason: messageOf(err) };
        }
      }
      return out;
    });
  }

  async setMaintenance(ident: string, enabled: boolean, reason?: string | null): Promise<void> {
    await this.updateNode(ident, enabled ? { maintenance: true, maintenance_reason: reason ?? null } : { maintenance: false });
  }

  async getBootDevice(ident: string): Promise<BootDeviceState> {
    return withTask(this.ctx, ident, { shared: true }, async (task) => {
      const dt = task.driverTask();
      await task.driver.management.validate(dt);
      return task.driver.management.getBootDevice(dt);
    });
  }

  async setBootDevice(ident: string, device: BootDevice, persistent: boolean): Promise<void> {
    await withTask(this.ctx, ident, {}, async (task) => {
      const dt = task.driverTask();
      await task.driver.management.validate(dt);
      const supported = await task.driver.management.getSupportedBootDevices(dt);
      if (!supported.includes(device)) throw fail('invalidBootDevice', { device, supported: supported.join(', ') });
      await task.driver.management.setBootDevice(dt, device, persistent);
      await task.save();
    });
  }

  async getSupportedBootDevices(ident: string): Promise<BootDevice[]> {
    return withTask(this.ctx, ident, { shared: true }, (task) => task.driver.management.getSupportedBootDevices(task.driverTask()));
  }

  continueInspection(body: unknown, nodeUuid?: string): Promise<string> {
    return continueInspection(this.ctx, body, nodeUuid);
  }

  lookupAgent(macs: readonly string[], nodeUuid?: string): Promise<AgentLookup> {
    return lookupAgentNode(this.ctx, macs, nodeUuid);
  }

  agentHeartbeat(ident: string, heartbeat: HeartbeatRequest): Promise<void> {
    return agentHeartbeat(this.ctx, ident, heartbeat);
  }

  injectNmi(ident: string): Promise<void> {
    return injectNmi(this.ctx, ident);
  }

  setBootMode(ident: string, mode: BootMode): Promise<void> {
    return changeBootMode(this.ctx, ident, mode);
  }

  setSecureBoot(ident: string, enabled: boolean): Promise<void> {
    return changeSecureBoot(this.ctx, ident, enabled);
  }

  getVirtualMedia(ident: string): Promise<VirtualMediaInfo[]> {
    return getVirtualMedia(this.ctx, ident);
  }

  attachVirtualMedia(ident: string, request: VirtualMediaAttach): Promise<void> {
    return attachVirtualMedia(this.ctx, ident, request);
  }

  detachVirtualMedia(ident: string, deviceTypes?: readonly VmediaDeviceType[]): Promise<void> {
    return detachVirtualMedia(this.ctx, ident, deviceTypes);
  }

  async setTargetRaidConfig(ident: string, config: JsonObject): Promise<void> {
    await withTask(this.ctx, ident, {}, async (task) => {
      task.driver.raid.validateRaidConfig(task.driverTask(), config);
      task.set({ target_raid_config: config });
      await task.save();
    });
  }

  async getConsole(ident: string): Promise<ConsoleState> {
    return withTask(this.ctx, ident, { shared: true }, async (task) => {
      const dt = task.driverTask();
      await task.driver.console.validate(dt);
      if (!task.node.console_enabled) return { console_enabled: false, console_info: null };
      return { console_enabled: true, console_info: await task.driver.console.getConsole(dt) };
    });
  }

  async setConsoleMode(ident: string, enabled: boolean): Promise<void> {
    await withTask(this.ctx, ident, {}, async (task) => {
      const dt = task.driverTask();
      await task.driver.console.validate(dt);
      if (task.node.console_enabled === enabled) return;
      if (enabled) await task.driver.console.startConsole(dt);
      else await task.driver.console.stopConsole(dt);
      task.set({ console_enabled: enabled, last_error: null });
      await task.save();
    });
  }

  async setTraits(ident: string, traits: string[]): Promise<string[]> {
    return withTask(this.ctx, ident, {}, async (task) => {
      const list = limitTraits(task.node.uuid, traits);
      await this.ctx.store.nodes.setTraits(task.node.id, list);
      return list;
    });
  }

  async addTrait(ident: string, trait: string): Promise<void> {
    await withTask(this.ctx, ident, {}, async (task) => {
      const current = task.node.traits;
      if (current.includes(trait)) return;
      if (current.length >= MAX_TRAITS) {
        throw fail('traitLimitReached', { trait, node: task.node.uuid, max: MAX_TRAITS });
      }
      await this.ctx.store.nodes.setTraits(task.node.id, [...current, trait]);
    });
  }

  async removeTrait(ident: string, trait: string): Promise<void> {
    await withTask(this.ctx, ident, {}, async (task) => {
      if (!task.node.traits.includes(trait)) throw fail('TraitNotFound', { node: task.node.uuid, trait });
      await this.ctx.store.nodes.setTraits(task.node.id, task.node.traits.filter((t) => t !== trait));
    });
  }

  createPort(values: PortCreate): Promise<Port> {
    return ports.createPort(this.ctx, values);
  }
  updatePort(uuid: string, changes: PortChanges): Promise<Port> {
    return ports.updatePort(this.ctx, uuid, changes);
  }
  destroyPort(uuid: string): Promise<void> {
    return ports.destroyPort(this.ctx, uuid);
  }
  createPortgroup(values: PortgroupCreate): Promise<Portgroup> {
    return ports.createPortgroup(this.ctx, values);
  }
  updatePortgroup(uuid: string, changes: PortgroupChanges): Promise<Portgroup> {
    return ports.updatePortgroup(this.ctx, uuid, changes);
  }
  destroyPortgroup(uuid: string): Promise<void> {
    return ports.destroyPortgroup(this.ctx, uuid);
  }

  /** Hosts serving each hardware type: online conductors whose heartbeat is recent. */
  private async hostsByDriver(): Promise<Map<string, string[]>> {
    const staleBefore = isoTime(this.ctx.clock.now() - this.ctx.config.heartbeat_timeout_s * 1000);
    const all = await this.ctx.store.conductors.list({ limit: 10_000 });
    const out = new Map<string, string[]>();
    for (const c of all) {
      if (!c.online || (c.updated_at !== null && c.updated_at < staleBefore)) continue;
      for (const d of c.drivers) out.set(d, [...(out.get(d) ?? []), c.hostname].sort());
    }
    return out;
  }

  private describe(name: string, hosts: string[]): DriverInfo {
    const choices = this.ctx.registry.interfacesOf(name);
    const interfaces = {} as DriverInfo['interfaces'];
    for (const iface of INTERFACES) interfaces[iface] = { enabled: [...choices[iface].enabled], default: choices[iface].default };
    return { name, hosts, interfaces };
  }

  async listDrivers(): Promise<DriverInfo[]> {
    const hosts = await this.hostsByDriver();
    return this.ctx.registry.hardwareTypes().filter((n) => hosts.has(n)).map((n) => this.describe(n, hosts.get(n) ?? []));
  }

  async getDriver(name: string): Promise<DriverInfo> {
    const hosts = (await this.hostsByDriver()).get(name);
    if (!hosts || !this.ctx.registry.hardwareTypes().includes(name)) {
      throw fail('DriverNotFound', { driver_name: name });
    }
    return this.describe(name, hosts);
  }

  async driverProperties(name: string): Promise<Record<string, string>> {
    await this.getDriver(name);
    return this.ctx.registry.properties(name);
  }

  async conductorsFor(nodes: readonly NodeRingKey[]): Promise<Array<string | null>> {
    return nodes.map((n) => this.ctx.rings.hostFor(n));
  }
}
