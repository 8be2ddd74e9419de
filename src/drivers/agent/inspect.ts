/**
 * In-band inspection (Ironic's `agent` inspect interface, `inspector/agent.py` `AgentInspect` with its
 * managed boot): the machine boots the inspection ramdisk — a one-time network boot, then a reboot,
 * through the node's own boot, management and power interfaces (ramdisk.ts) — whose agent posts its
 * inventory to `POST /v1/continue_inspection`; the node waits in `inspect wait` for the data (or the
 * timeout).
 */
import type { InspectInterface } from '../interfaces/inspect.js';
import { bootAgentRamdisk } from './ramdisk.js';

export function agentInspect(): InspectInterface {
  return {
    name: 'agent',
    properties: {},
    validate: () => undefined,
    async inspectHardware(task) {
      await bootAgentRamdisk(task, 'inspect');
      return 'wait';
    },
  };
}
