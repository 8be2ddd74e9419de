/**
 * In-band inspection (Ironic's `agent` inspect interface): the machine boots the ramdisk, whose agent
 * posts its inventory to `POST /v1/continue_inspection`. This interface only says so (`bootsRamdisk`);
 * the conductor sets the one-time network boot and reboots the machine through the node's own
 * management and power interfaces, then waits in `inspect wait` for the data (or the timeout).
 */
import type { InspectInterface } from '../interfaces/inspect.js';

export function agentInspect(): InspectInterface {
  return {
    name: 'agent',
    properties: {},
    bootsRamdisk: true,
    validate: () => undefined,
    inspectHardware: async () => 'wait',
  };
}
