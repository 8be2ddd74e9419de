/**
 * Every inspection hook Ingot implements, by Ironic's dash name, in the order Ingot runs them when all are
 * enabled. The configuration (`InspectorConfig.hooks`) picks and orders them; see `config/inspector.ts` for the
 * defaults.
 */
import { architectureHook } from './architecture.js';
import { bootModeHook } from './boot-mode.js';
import { cpuCapabilitiesHook } from './cpu-capabilities.js';
import { cpusHook } from './cpus.js';
import { extraHardwareHook } from './extra-hardware.js';
import { localLinkConnectionHook } from './local-link-connection.js';
import { memoryHook } from './memory.js';
import { parseLldpHook } from './parse-lldp.js';
import { pciDevicesHook } from './pci-devices.js';
import { physicalNetworkHook } from './physical-network.js';
import { portsHook } from './ports.js';
import { ramdiskErrorHook } from './ramdisk-error.js';
import { rootDeviceHook } from './root-device.js';
import type { InspectionHook } from './types.js';
import { validateInterfacesHook } from './validate-interfaces.js';

/** All hooks, in their canonical order. */
export const ALL_HOOKS: readonly InspectionHook[] = [
  ramdiskErrorHook,
  validateInterfacesHook,
  portsHook,
  architectureHook,
  cpusHook,
  memoryHook,
  rootDeviceHook,
  bootModeHook,
  cpuCapabilitiesHook,
  pciDevicesHook,
  parseLldpHook,
  localLinkConnectionHook,
  physicalNetworkHook,
  extraHardwareHook,
];

/** Hook name -> hook. */
export const HOOKS_BY_NAME: ReadonlyMap<string, InspectionHook> = new Map(ALL_HOOKS.map((h) => [h.name, h]));

/** Ironic hooks Ingot does not implement (yet); naming one in the configuration is an error that says so. */
export const UNSUPPORTED_HOOKS = ['accelerators', 'raid-device'] as const;
