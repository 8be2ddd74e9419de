import { updateCapabilities } from '../capabilities.js';
import type { InspectionHook } from './types.js';

/**
 * `cpu-capabilities`: for each CPU flag in `cpu_capabilities` (default: vmx/svm -> cpu_vt, aes -> cpu_aes,
 * pse -> cpu_hugepages, pdpe1gb -> cpu_hugepages_1g, smx -> cpu_txt) that the CPU has, sets that
 * capability to "true", merged into the existing capabilities (Ironic's CPUCapabilitiesHook). Absent
 * flags set nothing.
 */
export const cpuCapabilitiesHook: InspectionHook = {
  name: 'cpu-capabilities',
  run({ payload, node, config }) {
    const flags = payload.inventory.cpu?.flags;
    if (!flags || flags.length === 0) return { notes: [{ level: 'warning', message: 'no CPU flags in the inventory' }] };
    const present = new Set(flags);
    const caps: Record<string, string> = {};
    for (const [flag, name] of Object.entries(config.cpu_capabilities)) if (present.has(flag)) caps[name] = 'true';
    return { properties: { capabilities: updateCapabilities(node.properties.capabilities, caps) } };
  },
};
