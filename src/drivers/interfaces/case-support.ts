/** Support for the conformance suites: a full node record and a driver task over it. */
import type { Node } from '../../domain/node.js';
import type { DiscoveredPort, DriverTask } from './base.js';

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

/** A driver task whose `update` merges into its node, as the conductor's does. */
export function sampleTask(
  overrides: Partial<Node> = {},
  signal: AbortSignal = new AbortController().signal,
): DriverTask & { node: Node; reportedPorts: DiscoveredPort[] } {
  let node = sampleNode(overrides);
  const reportedPorts: DiscoveredPort[] = [];
  return {
    reportedPorts,
    reportPorts(ports) {
      reportedPorts.push(...ports);
    },
    get node() {
      return node;
    },
    signal,
    shared: false,
    update(changes) {
      node = { ...node, ...changes };
    },
  };
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
