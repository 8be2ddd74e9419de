import { updateCapabilities } from '../capabilities.js';
import type { InspectionHook } from './types.js';

/** `boot-mode`: capability `boot_mode` (`bios` / `uefi`) from `inventory.boot.current_boot_mode` (Ironic's BootModeHook). */
export const bootModeHook: InspectionHook = {
  name: 'boot-mode',
  run({ payload, node }) {
    const mode = payload.inventory.boot?.current_boot_mode;
    if (mode === null || mode === undefined) return { notes: [{ level: 'warning', message: 'no boot mode information in the inventory' }] };
    return { properties: { capabilities: updateCapabilities(node.properties.capabilities, { boot_mode: mode }) } };
  },
};
