/**
 * In-band inspection delegated to a separate ironic-inspector service (Ironic's `inspector` inspect
 * interface, `ironic/drivers/modules/inspector/interface.py` `Inspector`). Ingot manages the boot, as
 * Ironic does when its boot interface can: this interface asks the inspector to expect the machine
 * (`POST /v1/introspection/{uuid}?manage_boot=false`), then boots it into the ramdisk through the node's
 * own interfaces (a one-time network boot and a reboot, drivers/agent/ramdisk.ts). The ramdisk posts its inventory to the inspector's
 * `/v1/continue`; the inspector looks the node up by its BMC address and port MACs, runs its hooks and
 * writes the results (properties, ports) back through Ingot's REST API. The conductor's
 * `inspector-status` periodic task polls the inspector and ends the inspection; `abort` cancels it there.
 *
 * drivers/inspector/ is named after the interface (Ironic's `inspector`, in its
 * `drivers/modules/inspector/`) and holds only what talks to the external service: this interface and
 * its client (client.ts). Ingot's own inspection processing (hooks, rules) is src/inspection/; the
 * legacy ironic-inspector API Ingot serves is src/api/legacy-inspector/.
 */
import { bootAgentRamdisk } from '../agent/ramdisk.js';
import type { DriverTask } from '../interfaces/base.js';
import type { InspectInterface } from '../interfaces/inspect.js';
import { fail } from '../../shared/errors.js';
import type { InspectorClient } from './client.js';

/** The `inspector` inspect interface: an {@link InspectInterface} backed by an ironic-inspector service. */
export interface InspectorInspect extends InspectInterface {
  readonly name: 'inspector';
  /** The service's client; null when `[inspector] service_url` is empty (validate fails then). */
  readonly service: InspectorClient | null;
  /** Cancels the introspection at the inspector (the conductor's `abort` in `inspect wait`). */
  abort(task: DriverTask): Promise<void>;
}

/** Builds the interface over `service` (the conductor's shared client, or null when none is configured). */
export function inspectorInspect(opts: { service: InspectorClient | null }): InspectorInspect {
  const { service } = opts;
  const required = (): InspectorClient => {
    if (service) return service;
    throw fail('inspectorNotConfigured');
  };
  return {
    name: 'inspector',
    properties: {},
    service,
    validate: () => {
      required();
    },
    async inspectHardware(task) {
      // Ingot boots the machine, so the inspector must not touch power or boot device. The inspection is
      // registered first, so that data from a fast ramdisk always finds it.
      await required().start(task.node.uuid, { manageBoot: false }, task.signal);
      await bootAgentRamdisk(task, 'inspect');
      return 'wait';
    },
    async abort(task) {
      // A 404 means the inspector holds no introspection of the node: nothing left to cancel there.
      await required().abort(task.node.uuid, task.signal);
    },
  };
}

/** True when `inspect` is the `inspector` interface (the status periodic and abort look for it). */
export function isInspectorInspect(inspect: InspectInterface): inspect is InspectorInspect {
  return inspect.name === 'inspector' && 'service' in inspect && typeof (inspect as Partial<InspectorInspect>).abort === 'function';
}
