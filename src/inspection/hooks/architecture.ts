import type { InspectionHook } from './types.js';

/** `architecture`: `properties.cpu_arch` from `inventory.cpu.architecture` (Ironic's ArchitectureHook). */
export const architectureHook: InspectionHook = {
  name: 'architecture',
  run({ payload }) {
    const arch = payload.inventory.cpu?.architecture;
    if (typeof arch !== 'string' || arch === '') {
      return { failure: `Inventory has malformed or missing CPU architecture information: ${JSON.stringify(payload.inventory.cpu ?? null)}` };
    }
    return { properties: { cpu_arch: arch } };
  },
};
