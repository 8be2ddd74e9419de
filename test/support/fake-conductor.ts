/**
 * A small hand-written conductor for the API tests: a ConductorClient that applies every change straight
 * to a real store (no drivers, no background work: provision verbs run to their stable state at once),
 * and records the calls it received. `createTestApi()` (src/api/app.test-support.ts) builds the app on it.
 */
import type {
  AgentLookup, BootDeviceState, ConductorClient, ConsoleState, DriverInfo, InterfaceValidation, NodeChanges, NodeCreate, NodeRingKey, PortChanges,
  PortCreate, PortgroupChanges, PortgroupCreate, PowerTarget, ProvisionOptions, VirtualMediaAttach, VirtualMediaInfo,
} from '../../src/conductor/client.js';
import { refuseWhileTransitioning } from '../../src/conductor/flows/management.js';
import type { Store } from '../../src/db/store.js';
import {
  INTERFACES, type BootDevice, type BootMode, type InterfaceName, type JsonObject, type Node, type Port, type Portgroup, type VmediaDeviceType,
} from '../../src/domain/node.js';
import { DELETE_ALLOWED_STATES, STATES, transition, VERBS, type ProvisionState, type ProvisionVerb } from '../../src/domain/states.js';
import { fail, IngotError } from '../../src/shared/errors.js';

const DRIVERS = ['fake-hardware', 'manual-management'];

/** A ConductorClient that acts on the store directly; records the calls it received. */
export class FakeConductor implements ConductorClient {
  /** The one conductor this fake pretends to be. */
  readonly hostname = 'test-conductor';
  readonly calls: string[] = [];
  private readonly bootDevices = new Map<string, BootDeviceState>();

  constructor(private readonly store: Store) {}

  async createNode(values: NodeCreate): Promise<Node> {
    this.calls.push('createNode');
    if (!DRIVERS.includes(values.driver)) throw fail('noConductorForDriver', { driver: values.driver, group: values.conductor_group ?? '' });
    return this.store.nodes.create(values);
  }

  async updateNode(ident: string, changes: NodeChanges): Promise<Node> {
    this.calls.push('updateNode');
    if (changes.driver !== undefined && !DRIVERS.includes(changes.driver)) throw fail('noConductorForDriver', { driver: changes.driver, group: '' });
    return this.store.nodes.update((await this.store.nodes.get(ident)).uuid, changes);
  }

  async destroyNode(ident: string): Promise<void> {
    this.calls.push('destroyNode');
    const node = await this.store.nodes.get(ident);
    if (!DELETE_ALLOWED_STATES.includes(node.provision_state) && !node.maintenance) {
      throw fail('nodeDeleteState', { node: node.uuid, state: node.provision_state, valid: `(${DELETE_ALLOWED_STATES.map((s) => `'${s}'`).join(', ')})` });
    }
    await this.store.nodes.delete(node.uuid);
  }

  async setPowerState(ident: string, target: PowerTarget): Promise<void> {
    this.calls.push(`setPowerState:${target}`);
    const state = target === 'power on' || target === 'rebooting' || target === 'soft rebooting' ? 'power on' : 'power off';
    await this.store.nodes.update((await this.store.nodes.get(ident)).uuid, { power_state: state, target_power_state: null });
  }

  async doProvisionAction(ident: string, verb: ProvisionVerb, _options: ProvisionOptions): Promise<void> {
    this.calls.push(`doProvisionAction:${verb}`);
    const node = await this.store.nodes.get(ident);
    let state: ProvisionState | undefined = transition(node.provision_state, VERBS[verb].event);
    if (!state) {
      throw fail('InvalidStateRequested', { action: verb, node: node.uuid, state: node.provision_state });
    }
    // Run to the next stable state at once: done (or clean, after deleting).
    for (let i = 0; i < 5 && !STATES[state].stable; i++) state = transition(state, 'done') ?? transition(state, 'clean') ?? state;
    await this.store.nodes.update(node.uuid, { provision_state: state, target_provision_state: null });
  }

  async validate(): Promise<Record<InterfaceName, InterfaceValidation>> {
    const out = {} as Record<InterfaceName, InterfaceValidation>;
    for (const i of INTERFACES) out[i] = i === 'rescue' ? { result: null, reason: 'not supported' } : { result: true, reason: null };
    return out;
  }

  async setMaintenance(ident: string, enabled: boolean, reason?: string | null): Promise<void> {
    this.calls.push(`setMaintenance:${enabled}`);
    await this.store.nodes.update((await this.store.nodes.get(ident)).uuid, { maintenance: enabled, maintenance_reason: enabled ? (reason ?? null) : null });
  }

  async getBootDevice(ident: string): Promise<BootDeviceState> {
    return this.bootDevices.get(ident) ?? { boot_device: null, persistent: null };
  }

  async setBootDevice(ident: string, device: BootDevice, persistent: boolean): Promise<void> {
    this.bootDevices.set(ident, { boot_device: device, persistent });
  }

  async getSupportedBootDevices(): Promise<BootDevice[]> {
    return ['pxe', 'disk'];
  }

  /** Counts NMIs per node UUID; manual-management nodes have none to send, as the real conductor says. */
  readonly nmis = new Map<string, number>();

  async continueInspection(_body: unknown, nodeUuid?: string): Promise<string> {
    this.calls.push('continueInspection');
    return nodeUuid ?? 'unknown';
  }

  async lookupAgent(): Promise<AgentLookup> {
    throw new IngotError('NodeNotFound', 'the fake conductor serves no agents');
  }

  async agentHeartbeat(): Promise<void> {
    throw new IngotError('NodeNotFound', 'the fake conductor serves no agents');
  }

  async injectNmi(ident: string): Promise<void> {
    const node = await this.store.nodes.get(ident);
    this.calls.push('injectNmi');
    if (node.driver === 'manual-management') throw fail('UnsupportedDriverExtension', { driver: node.driver, extension: 'inject_nmi' });
    this.nmis.set(node.uuid, (this.nmis.get(node.uuid) ?? 0) + 1);
  }

  /** Sets boot_mode at once (no worker); refuses as the real conductor does. */
  async setBootMode(ident: string, mode: BootMode): Promise<void> {
    const node = await this.store.nodes.get(ident);
    this.calls.push(`setBootMode:${mode}`);
    refuseWhileTransitioning(node, 'boot mode');
    if (node.driver === 'manual-management') throw fail('UnsupportedDriverExtension', { driver: node.driver, extension: 'set_boot_mode' });
    await this.store.nodes.update(node.uuid, { boot_mode: mode, last_error: null });
  }

  async setSecureBoot(ident: string, enabled: boolean): Promise<void> {
    const node = await this.store.nodes.get(ident);
    this.calls.push(`setSecureBoot:${enabled}`);
    refuseWhileTransitioning(node, 'secure boot state');
    throw fail('UnsupportedDriverExtension', { driver: node.driver, extension: 'set_secure_boot_state' });
  }

  /** Attached images per node UUID and device type; manual-management nodes have no virtual media. */
  readonly vmedia = new Map<string, Map<VmediaDeviceType, string>>();

  private async vmediaOf(ident: string, extension: string): Promise<Map<VmediaDeviceType, string>> {
    const node = await this.store.nodes.get(ident);
    if (node.driver === 'manual-management') throw fail('UnsupportedDriverExtension', { driver: node.driver, extension });
    const media = this.vmedia.get(node.uuid) ?? new Map<VmediaDeviceType, string>();
    this.vmedia.set(node.uuid, media);
    return media;
  }

  async getVirtualMedia(ident: string): Promise<VirtualMediaInfo[]> {
    const media = await this.vmediaOf(ident, 'get_virtual_media');
    return [...media].map(([, image]) => ({ media_types: [], inserted: true, image }));
  }

  async attachVirtualMedia(ident: string, request: VirtualMediaAttach): Promise<void> {
    this.calls.push(`attachVirtualMedia:${request.device_type}`);
    (await this.vmediaOf(ident, 'attach_virtual_media')).set(request.device_type, request.image_url);
  }

  async detachVirtualMedia(ident: string, deviceTypes?: readonly VmediaDeviceType[]): Promise<void> {
    this.calls.push(`detachVirtualMedia:${deviceTypes?.join(',') ?? 'all'}`);
    const media = await this.vmediaOf(ident, 'detach_virtual_media');
    for (const t of deviceTypes ?? [...media.keys()]) media.delete(t);
  }

  async setTargetRaidConfig(ident: string, config: JsonObject): Promise<void> {
    await this.store.nodes.update(ident, { target_raid_config: config });
  }

  async getConsole(ident: string): Promise<ConsoleState> {
    const n = await this.store.nodes.get(ident);
    return { console_enabled: n.console_enabled, console_info: n.console_enabled ? { type: 'socat', url: 'tcp://127.0.0.1:8000' } : null };
  }

  async setConsoleMode(ident: string, enabled: boolean): Promise<void> {
    await this.store.nodes.update(ident, { console_enabled: enabled });
  }

  async setTraits(ident: string, traits: string[]): Promise<string[]> {
    await this.store.nodes.setTraits((await this.store.nodes.get(ident)).id, traits);
    return traits;
  }

  async addTrait(ident: string, trait: string): Promise<void> {
    const n = await this.store.nodes.get(ident);
    await this.store.nodes.setTraits(n.id, [...new Set([...n.traits, trait])]);
  }

  async removeTrait(ident: string, trait: string): Promise<void> {
    const n = await this.store.nodes.get(ident);
    await this.store.nodes.setTraits(n.id, n.traits.filter((t) => t !== trait));
  }

  createPort(values: PortCreate): Promise<Port> {
    this.calls.push('createPort');
    return this.store.ports.create(values);
  }
  updatePort(uuid: string, changes: PortChanges): Promise<Port> {
    this.calls.push('updatePort');
    return this.store.ports.update(uuid, changes);
  }
  destroyPort(uuid: string): Promise<void> {
    this.calls.push('destroyPort');
    return this.store.ports.delete(uuid);
  }
  createPortgroup(values: PortgroupCreate): Promise<Portgroup> {
    return this.store.portgroups.create(values);
  }
  updatePortgroup(uuid: string, changes: PortgroupChanges): Promise<Portgroup> {
    return this.store.portgroups.update(uuid, changes);
  }
  destroyPortgroup(uuid: string): Promise<void> {
    return this.store.portgroups.delete(uuid);
  }

  async listDrivers(): Promise<DriverInfo[]> {
    return DRIVERS.map((name) => this.driver(name));
  }

  async getDriver(name: string): Promise<DriverInfo> {
    if (!DRIVERS.includes(name)) throw fail('DriverNotFound', { driver_name: name });
    return this.driver(name);
  }

  async driverProperties(name: string): Promise<Record<string, string>> {
    await this.getDriver(name);
    return { deploy_kernel: 'UUID or URL of the deploy kernel. Required.', fake_power_delay_s: 'Delay of fake power actions. Optional.' };
  }

  async conductorsFor(nodes: readonly NodeRingKey[]): Promise<Array<string | null>> {
    return nodes.map(() => this.hostname);
  }

  private driver(name: string): DriverInfo {
    const interfaces = {} as DriverInfo['interfaces'];
    for (const i of INTERFACES) interfaces[i] = { enabled: ['fake', 'no-' + i], default: 'fake' };
    return { name, hosts: [this.hostname], interfaces };
  }
}
