/**
 * What every driver interface shares (Ironic's `drivers/base.py` `BaseInterface` and the `TaskManager` a
 * driver method gets). Drivers act on a {@link DriverTask} — the node as the conductor loaded it under its
 * lock, its ports, the sibling interfaces of the same node, the conductor's settings and the agent
 * services — and report node changes through `task.update()`; the conductor writes them when the
 * operation ends, or when a driver asks for it with `task.save()` (before a machine boots, say).
 */
import type { ConductorConfig } from '../../config/conductor.js';
import type { InterfaceName, JsonObject, Node, Port, PowerState } from '../../domain/node.js';
import type { StepKind } from '../../domain/states.js';
import type { Clock } from '../../shared/clock.js';
import { fail } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import type { AgentServices } from '../agent/services.js';

/**
 * Interface name -> its contract. Each contract's file adds its own entry by declaration merging
 * (`declare module './base.js'`), so that this file, which every contract imports, imports none of them.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the contract files (see above)
export interface InterfaceContracts {}

/** A node's composed driver: one implementation per interface (implementations are stateless; the node carries the state). */
export type NodeDriver = { readonly hardwareType: string } & { readonly [I in InterfaceName]: InterfaceContracts[I] };

/** A history entry's severity. */
export type HistorySeverity = 'INFO' | 'WARNING' | 'ERROR';

/** The view of a conductor task a driver gets. */
export interface DriverTask {
  /** The node, including changes made through `update` so far. */
  readonly node: Readonly<Node>;
  /**
   * The node's driver: its sibling interfaces (a boot interface sets the boot device through
   * `driver.management`, a deploy step powers the machine through `driver.power`). The power interface
   * is the conductor's guarded one, which refuses to power off a node with `disable_power_off`.
   */
  readonly driver: NodeDriver;
  /** The node's ports, as stored now (read by the task at each call: inspection may have changed them). */
  ports(): Promise<Port[]>;
  /** Aborts when the operation is abandoned (conductor shutdown); long waits must honour it. */
  readonly signal: AbortSignal;
  /** True when the task holds only a shared (read) lock: drivers must not change the node then. */
  readonly shared: boolean;
  /** The conductor's settings (timeouts, fast track, step priorities, log collection). */
  readonly config: Readonly<ConductorConfig>;
  readonly clock: Clock;
  readonly logger: Logger;
  /** What the conductor lends the steps that run on the ramdisk agent: its client, the image, the command watch. */
  readonly agent: AgentServices;
  /** Records node field changes; the conductor persists them. */
  update(changes: Partial<Node>): void;
  /** Persists the changes recorded so far (guarded by the task's lock). */
  save(): Promise<void>;
  /** Adds an entry to the node history. */
  record(eventType: string, event: string, severity: HistorySeverity, durationMs: number | null): Promise<void>;
  /** Persists the power state the machine is now in (clearing target_power_state) and records a change in the history. */
  setPower(state: PowerState): Promise<void>;
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

/** A step of a flow as requested and run: `{interface, step, args, priority}` (Ironic's step dicts). */
export interface Step {
  interface: InterfaceName;
  step: string;
  args: JsonObject;
  priority: number;
}

/** What a step resolves to: done (nothing, or `done`), or `wait` — the flow waits for the ramdisk agent, whose heartbeats continue it. */
export type StepResult = void | 'done' | 'wait';

/** A step a driver offers to cleaning, deployment or servicing; `step` is the request that runs it. */
export type StepFn = (task: DriverTask, args: JsonObject, step: Readonly<Step>) => Promise<StepResult>;

/** A step an interface offers to one kind of flow (Ironic's `@clean_step`, `@deploy_step`, `@service_step`). */
export interface FlowStep {
  /** Default priority: above 0 the step runs without being asked (highest first); 0: only when a request names it. */
  readonly priority: number;
  /** Default arguments. */
  readonly args?: JsonObject;
  readonly run: StepFn;
}

/** The part common to all per-concern contracts. */
export interface DriverInterface {
  /** Implementation name as set in `<iface>_interface` (e.g. `fake`, `no-raid`). */
  readonly name: string;
  /** `driver_info` keys this implementation reads: key -> description (say "Required." or "Optional."). */
  readonly properties: Readonly<Record<string, string>>;
  /** Checks the node's configuration without talking to the hardware; throws InvalidParameterValue or similar. */
  validate(task: DriverTask): void | Promise<void>;
  /** Steps callable by name from clean, deploy and service step lists alike, when a request names them. */
  readonly steps?: Readonly<Record<string, StepFn>>;
  /**
   * The steps this interface offers to flows of `kind`, by name (Ironic's `get_clean_steps`,
   * `get_deploy_steps`, `get_service_steps`): those with a priority above 0 make the flow's default plan.
   * Reads nothing but the task's node and settings.
   */
  flowSteps?(task: DriverTask, kind: StepKind): Readonly<Record<string, FlowStep>>;
}

/** The error a `no-*` implementation raises for an interface the hardware type does not support. */
export function unsupported(task: DriverTask, iface: string) {
  return fail('UnsupportedDriverExtension', { driver: task.node.driver, extension: iface });
}
