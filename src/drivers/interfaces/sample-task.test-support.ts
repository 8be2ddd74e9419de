/** Support for the conformance suites: a full node record and a driver task over it, on fake siblings. */
import { Value } from 'typebox/value';
import { ConductorConfig } from '../../config/conductor.js';
import type { Node, Port } from '../../domain/node.js';
import { systemClock } from '../../shared/clock.js';
import { silentLogger } from '../../shared/logger.js';
import type { AgentServices } from '../agent/services.js';
import { fakeBios, fakeConsole, fakeFirmware, fakeRaid, fakeVendor } from '../fake/extras.js';
import { fakeManagement } from '../fake/management.js';
import { fakePower } from '../fake/power.js';
import { fakeBoot, fakeDeploy, fakeInspect, fakeRescue } from '../fake/provisioning.js';
import { noopNetwork, noopStorage } from '../noop/noop.js';
import type { DiscoveredPort, DriverTask, HistorySeverity, NodeDriver } from './base.js';

/** A complete node record of `fake-hardware` with `overrides`. */
export function sampleNode(overrides: Partial<Node> = {}): Node {
  return {
    id: 1, uuid: '1be26c0b-03f2-4d2e-ae87-c02d7f33c123', name: 'node-0', driver: 'fake-hardware', driver_info: {}, driver_internal_info: {}, disable_power_off: false,
    properties: {}, instance_info: {}, instance_uuid: null, chassis_id: null, extra: {}, owner: null, lessee: null, description: null,
    resource_class: null, conductor_group: '', shard: null, parent_node: null, conductor_affinity: null, power_state: null,
    target_power_state: null, provision_state: 'manageable', target_provision_state: null, provision_updated_at: null, maintenance: false,
    maintenance_reason: null, fault: null, last_error: null, reservation: 'case-host', console_enabled: false, inspection_started_at: null,
    inspection_finished_at: null, raid_config: {}, target_raid_config: {}, clean_step: {}, deploy_step: {}, service_step: {},
    protected: false, protected_reason: null, retired: false, retired_reason: null, automated_clean: null, allocation_id: null,
    network_data: {}, boot_mode: null, secure_boot: null, bios_interface: null, boot_interface: null, console_interface: null,
    deploy_interface: null, firmware_interface: null, inspect_interface: null, management_interface: null, network_interface: null,
    power_interface: null, raid_interface: null, rescue_interface: null, storage_interface: null, vendor_interface: null, traits: [],
    created_at: '2026-01-01T00:00:00.000Z', updated_at: null, version: 0, ...overrides,
  };
}

/** What {@link sampleTask} may be given besides node fields. */
export interface SampleTaskOptions {
  /** The node's ports (default none). */
  ports?: Port[];
  /** Sibling interfaces replacing the fake-hardware defaults (fake power, management, boot, deploy …). */
  driver?: Partial<Omit<NodeDriver, 'hardwareType'>>;
  /** Conductor settings over the defaults. */
  config?: Partial<ConductorConfig>;
  /** The agent services (default: none, every use fails). */
  agent?: AgentServices;
}

/** A sample task, with what it recorded: history entries and power states. */
export type SampleTask = DriverTask & {
  node: Node;
  reportedPorts: DiscoveredPort[];
  records: { eventType: string; event: string; severity: HistorySeverity; durationMs: number | null }[];
};

const noAgent = (): never => {
  throw new Error('this sample task has no agent services');
};

/** The fake-hardware driver a sample task's node has unless told otherwise. */
function fakeDriver(over: SampleTaskOptions['driver'] = {}): NodeDriver {
  return {
    hardwareType: 'fake-hardware',
    bios: fakeBios(), boot: fakeBoot(), console: fakeConsole(), deploy: fakeDeploy(), firmware: fakeFirmware(), inspect: fakeInspect(),
    management: fakeManagement(), network: noopNetwork(), power: fakePower(), raid: fakeRaid(), rescue: fakeRescue(), storage: noopStorage(),
    vendor: fakeVendor(), ...over,
  };
}

/** A driver task whose `update` merges into its node and `save` keeps it, as the conductor's does. */
export function sampleTask(
  overrides: Partial<Node> = {},
  signal: AbortSignal = new AbortController().signal,
  opts: SampleTaskOptions = {},
): SampleTask {
  let node = sampleNode(overrides);
  const reportedPorts: DiscoveredPort[] = [];
  const records: SampleTask['records'] = [];
  const driver = fakeDriver(opts.driver);
  const task: SampleTask = {
    reportedPorts,
    records,
    reportPorts(ports) {
      reportedPorts.push(...ports);
    },
    get node() {
      return node;
    },
    driver,
    ports: async () => opts.ports ?? [],
    signal,
    shared: false,
    config: Value.Default(ConductorConfig, structuredClone(opts.config ?? {})) as ConductorConfig,
    clock: systemClock,
    logger: silentLogger(),
    agent: opts.agent ?? { get client(): never { return noAgent(); }, image: noAgent, releaseImage: noAgent, watchCommand: noAgent },
    update(changes) {
      node = { ...node, ...changes };
    },
    save: async () => undefined,
    async record(eventType, event, severity, durationMs) {
      records.push({ eventType, event, severity, durationMs });
    },
    async setPower(state) {
      node = { ...node, power_state: state, target_power_state: null };
    },
  };
  return task;
}

/** Checks the shape every implementation shares (name and documented properties). */
export function commonShape(impl: { name: string; properties: Readonly<Record<string, string>> }): string[] {
  const problems: string[] = [];
  if (!/^[a-z][a-z0-9-]*$/.test(impl.name)) problems.push(`name ${impl.name} is not a kebab-case implementation name`);
  for (const [k, v] of Object.entries(impl.properties)) {
    if (typeof v !== 'string' || v.length === 0) problems.push(`property ${k} has no description`);
  }
  return problems;
}
