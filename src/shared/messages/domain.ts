/** The error messages raised in `src/domain/` (see `index.ts` for how a message reads and is raised). */
import type { MessageTable } from './table.js';

export const DOMAIN_MESSAGES = {
  // node.ts: a power action refused on a node with disable_power_off (Ironic's PowerStateFailure text first)
  powerOffRefused: {
    code: 'InvalidState',
    text: 'Failed to set node power state to {action}: node {node} has disable_power_off set, so Ingot never powers it off. Use "rebooting" to restart it, or set disable_power_off to false (API 1.95) to allow powering it off.',
  },
} as const satisfies MessageTable;
