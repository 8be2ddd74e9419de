/** The Redfish driver: client, interfaces and helpers. */
export { RedfishClient, odataId, type RedfishReply, type RedfishResource } from './client.js';
export { parseRedfishDriverInfo, REDFISH_PROPERTIES, type RedfishAuthType, type RedfishDriverInfo } from './driver-info.js';
export { RedfishError, redfishErrorMessage } from './errors.js';
export { redfishInspect, readInventory } from './inspect.js';
export { mapInspection, type InspectionResult, type RedfishInventory } from './inspect-mapping.js';
export { getBootMode, injectNmi, redfishManagement, setBootMode, type BootMode } from './management.js';
export { RedfishClientPool, type RedfishPoolOptions } from './pool.js';
export { redfishPower } from './power.js';
export { DEFAULT_REDFISH_SETTINGS, redfishSettings, type RedfishSettings } from './settings.js';
export type { RedfishInterfaceOptions } from './system.js';
export { attachVirtualMedia, detachVirtualMedia, ejectMedia, insertMedia, listVirtualMedia, type VirtualMediaDevice } from './virtual-media.js';
