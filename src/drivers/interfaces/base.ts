/**
 * What every driver interface shares. Drivers act on a {@link DriverTask} — the node as the conductor
 * loaded it under its lock — and never persist: they report changes through `task.update()` and the
 * conductor writes them when the operation ends.
 */
import type { JsonObject, Node } from '../../domain/node.js';
import { fail } from '../../shared/errors.js';

/** The view of a conductor task a driver gets. */
export interface DriverTask {
  /** The node, including changes made through `update` so far. */
  readonly node: Readonly<Node>;
  /** Aborts when the operation is abandoned (conductor shutdown); long waits must honour it. */
  readonly signal: AbortSignal;
  /** True when the task holds only a shared (read) lock: drivers must not change the node then. */
  readonly shared: boolean;
  /** Records node field changes; the conductor persists them. */
  update(changes: Partial<Node>): void;
  /** Reports network ports found on the machine (inspection); the conductor creates those the node lacks. */
  reportPorts(ports: readonly DiscoveredPort[]): void;
}

/** A network port a driver found on the machine. */
export interface DiscoveredPort {
  /** MAC address, lower case, colon separated. */
  address: string;
  /** True for the port the machine network-boots from. */
  pxe_enabled: boolean;
}

/** A step a driver offers to cleaning, deployment or servicing (`{interface, step, args}` requests). */
export type StepFn = (task: DriverTask, args: JsonObject) => Promise<void>;

/** The part common to all per-concern contracts. */
export interface DriverInterface {
  /** Implementation name as set in `<iface>_interface` (e.g. `fake`, `no-raid`). */
  readonly name: string;
  /** `driver_info` keys this implementation reads: key -> description (say "Required." or "Optional."). */
  readonly properties: Readonly<Record<string, string>>;
  /** Checks the node's configuration without talking to the hardware; throws InvalidParameterValue or similar. */
  validate(task: DriverTask): void | Promise<void>;
  /** Steps callable by name from clean/deploy/service step lists. */
  readonly steps?: Readonly<Record<string, StepFn>>;
}

/** The error a `no-*` implementation raises for an interface the hardware type does not support. */
export function unsupported(task: DriverTask, iface: string) {
  return fail('UnsupportedDriverExtension', `Driver ${task.node.driver} does not support ${iface} (disabled or not implemented).`);
}
