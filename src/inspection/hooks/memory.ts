import type { InspectionHook } from './types.js';

const MIB = 2 ** 20;

/**
 * `memory`: `properties.memory_mb` from `inventory.memory.physical_mb` (Ironic's MemoryHook). When the
 * agent could not read the DIMM sizes (physical_mb null), the kernel's usable total (`memory.total`, in
 * bytes) rounded down to MiB is used instead, as the legacy inspector did; with neither, inspection fails.
 */
export const memoryHook: InspectionHook = {
  name: 'memory',
  run({ payload }) {
    const memory = payload.inventory.memory;
    const physical = memory?.physical_mb;
    if (typeof physical === 'number' && physical > 0) return { properties: { memory_mb: Math.trunc(physical) } };
    const total = memory?.total;
    if (typeof total === 'number' && total > 0) {
      return {
        properties: { memory_mb: Math.floor(total / MIB) },
        notes: [{ level: 'warning', message: 'memory.physical_mb missing; memory_mb computed from memory.total' }],
      };
    }
    return { failure: `Inventory has missing memory information: ${JSON.stringify(memory ?? null)}` };
  },
};
