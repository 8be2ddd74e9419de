/**
 * Out-of-band Redfish inspection (`inspect_interface = redfish`): reads the system's processors, memory,
 * storage and NICs from the BMC, sets the node's properties and reports its ports. Finishes at once
 * (`done`); nothing boots.
 */
import { fail } from '../../shared/errors.js';
import type { InspectInterface } from '../interfaces/inspect.js';
import type { RedfishResource } from './client.js';
import { odataId } from './client.js';
import { parseRedfishDriverInfo, REDFISH_PROPERTIES } from './driver-info.js';
import { RedfishError } from './errors.js';
import { mapInspection, type RedfishInventory } from './inspect-mapping.js';
import { linkOf, openSystem, readMembers, readSystem, type RedfishInterfaceOptions, type SystemHandle } from './system.js';

/** A sub-resource the BMC does not have (4xx) reads as empty; connection failures and 5xx still fail. */
async function optional<T>(read: () => Promise<T>, empty: T): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof RedfishError && err.httpStatus !== null && err.httpStatus >= 400 && err.httpStatus < 500) return empty;
    throw err;
  }
}

/**
 * A storage read (SimpleStorage, Storage, its drives and volumes) that the BMC answered with any HTTP error
 * reads as empty: local_gb then comes from the other storage resources, as Ironic's `_detect_local_gb`
 * ignores their errors. NOTE: sushy-tools' fake driver answers 500 to SimpleStorage ("Not implemented") and
 * to a Volumes collection it has no volumes for. Connection failures still fail.
 */
async function storageRead<T>(read: () => Promise<T>, empty: T): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof RedfishError && err.httpStatus !== null && err.httpStatus >= 400) return empty;
    throw err;
  }
}

async function members(h: SystemHandle, system: RedfishResource, key: string, read = optional): Promise<RedfishResource[]> {
  const link = linkOf(system, key);
  return link ? read(() => readMembers(h, link), []) : [];
}

/** The system's Storage controllers with their drives and volumes, as inspection reads them. */
export async function readStorage(h: SystemHandle, system: RedfishResource): Promise<RedfishInventory['storage']> {
  const controllers = await members(h, system, 'Storage', storageRead);
  return Promise.all(controllers.map(async (s) => {
    const driveIds = Array.isArray(s['Drives']) ? s['Drives'].map(odataId).filter((d): d is string => d !== null) : [];
    const drives = await Promise.all(driveIds.map((id) => storageRead(() => h.client.get(id, h.signal), {} as RedfishResource)));
    const volumesLink = odataId(s['Volumes']);
    const volumes = volumesLink ? await storageRead(() => readMembers(h, volumesLink), []) : [];
    return { drives, volumes };
  }));
}

/** Fetches everything inspection reads. */
export async function readInventory(h: SystemHandle): Promise<RedfishInventory> {
  const system = await readSystem(h);
  const needDimms = typeof (system['MemorySummary'] as RedfishResource | undefined)?.['TotalSystemMemoryGiB'] !== 'number';
  const [processors, memory, storage, simpleStorage, ethernetInterfaces] = await Promise.all([
    members(h, system, 'Processors'),
    needDimms ? members(h, system, 'Memory') : Promise.resolve([]),
    readStorage(h, system),
    members(h, system, 'SimpleStorage', storageRead),
    members(h, system, 'EthernetInterfaces'),
  ]);
  return { system, processors, memory, storage, simpleStorage, ethernetInterfaces };
}

export function redfishInspect(opts: RedfishInterfaceOptions): InspectInterface {
  return {
    name: 'redfish',
    properties: REDFISH_PROPERTIES,
    validate(task) {
      parseRedfishDriverInfo(task.node);
    },
    async inspectHardware(task) {
      const h = await openSystem(task, opts);
      const result = mapInspection(await readInventory(h), task.node.properties);
      if (result.missing.length > 0) {
        throw fail('redfishInspectionIncomplete', { node: task.node.uuid, bmc: h.client.bmc, system: h.path, missing: result.missing.join(', ') });
      }
      task.update({ properties: result.properties });
      if (result.ports.length > 0) task.reportPorts(result.ports);
      return 'done';
    },
  };
}
