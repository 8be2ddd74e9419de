/** Assembles the inspection payload: the inventory, then each configured collector in order. */
import type { InspectionPayload, Inventory } from '../../protocol/agent/inventory.js';
import { messageOf } from '../../shared/errors.js';
import type { AgentConfig } from '../config.js';
import type { HardwareManager } from '../hardware/manager.js';
import type { AgentSystem } from '../system.js';
import type { Collector } from './collector.js';
import { collectDefault } from './default.js';
import { collectExtraHardware } from './extra-hardware.js';
import { collectLogs } from './logs.js';
import { collectPciDevices } from './pci-devices.js';

/** The collectors this agent knows, by the names `ipa-inspection-collectors` uses. */
export const COLLECTORS: Record<string, Collector> = {
  default: collectDefault,
  logs: collectLogs,
  'pci-devices': collectPciDevices,
  'extra-hardware': collectExtraHardware,
};

/** The payload plus what the hardware manager could not find out. */
export interface BuiltPayload {
  payload: InspectionPayload;
  problems: string[];
}

/** An inventory with nothing known, sent with `error` when the hardware manager itself failed. */
function emptyInventory(system: AgentSystem): Inventory {
  return {
    cpu: { model_name: null, frequency: null, count: 0, architecture: system.machine(), flags: [] },
    memory: { total: 0, physical_mb: null },
    disks: [],
    interfaces: [],
    bmc_address: null,
    bmc_v6address: null,
    system_vendor: { manufacturer: '', product_name: '', serial_number: '' },
    boot: { current_boot_mode: 'bios', pxe_interface: null },
    hostname: system.hostname(),
  };
}

/**
 * Collects the inventory with `manager`, then runs the collectors named in the configuration. A
 * collector that throws (or an unknown name) lands in `collector_errors[name]`; the others still run.
 * The manager's problems travel in `inventory_problems` (plugin data) so the operator sees them.
 */
export async function buildInspectionPayload(config: AgentConfig, manager: HardwareManager, system: AgentSystem): Promise<BuiltPayload> {
  let inventory: Inventory;
  let problems: string[] = [];
  let error: string | null = null;
  try {
    ({ inventory, problems } = await manager.collectInventory());
  } catch (err) {
    inventory = emptyInventory(system);
    error = `hardware manager ${manager.name} failed: ${messageOf(err)}`;
  }
  const payload: InspectionPayload = {
    inventory,
    error,
    configuration: { collectors: [...config.inspectionCollectors], managers: [{ name: manager.name, version: manager.version }] },
  };
  const errors: Record<string, string> = {};
  for (const name of config.inspectionCollectors) {
    const collector = COLLECTORS[name];
    if (!collector) {
      errors[name] = `unknown collector "${name}" (known: ${Object.keys(COLLECTORS).join(', ')})`;
      continue;
    }
    try {
      await collector(payload, { config, system, inventory });
    } catch (err) {
      errors[name] = messageOf(err);
    }
  }
  if (Object.keys(errors).length) payload.collector_errors = errors;
  if (problems.length) payload.inventory_problems = problems;
  return { payload, problems };
}
