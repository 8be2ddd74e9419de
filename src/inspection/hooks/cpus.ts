import type { InspectionHook } from './types.js';

/** `cpus`: `properties.cpus` from `inventory.cpu.count`; a count of 0 leaves it alone (Ironic's CPUSHook). */
export const cpusHook: InspectionHook = {
  name: 'cpus',
  run({ payload }) {
    const count = Math.trunc(Number(payload.inventory.cpu?.count ?? 0));
    if (!count) return { notes: [{ level: 'warning', message: 'no CPU count in the inventory' }] };
    return { properties: { cpus: count } };
  },
};
