/**
 * The provision state machine, as data: every state with the stable state it is heading for, every
 * transition `[from, event, to]`, the API verbs that start them and the policy sets. It is Ironic's
 * machine (ironic/common/states.py) state for state, so that clients see the same behaviour.
 * `transition()` is pure; only the conductor applies it, under the node lock.
 */

export const S = {
  ENROLL: 'enroll',
  VERIFYING: 'verifying',
  MANAGEABLE: 'manageable',
  INSPECTING: 'inspecting',
  INSPECTWAIT: 'inspect wait',
  INSPECTFAIL: 'inspect failed',
  CLEANING: 'cleaning',
  CLEANWAIT: 'clean wait',
  CLEANHOLD: 'clean hold',
  CLEANFAIL: 'clean failed',
  AVAILABLE: 'available',
  DEPLOYING: 'deploying',
  DEPLOYWAIT: 'wait call-back',
  DEPLOYHOLD: 'deploy hold',
  DEPLOYFAIL: 'deploy failed',
  ACTIVE: 'active',
  DELETING: 'deleting',
  ERROR: 'error',
  RESCUING: 'rescuing',
  RESCUEWAIT: 'rescue wait',
  RESCUEFAIL: 'rescue failed',
  RESCUE: 'rescue',
  UNRESCUING: 'unrescuing',
  UNRESCUEFAIL: 'unrescue failed',
  ADOPTING: 'adopting',
  ADOPTFAIL: 'adopt failed',
  SERVICING: 'servicing',
  SERVICEWAIT: 'service wait',
  SERVICEHOLD: 'service hold',
  SERVICEFAIL: 'service failed',
} as const;

export type ProvisionState = (typeof S)[keyof typeof S];

/** Events that move the machine: the API's (after verb mapping) and the conductor's internal ones. */
export type ProvisionEvent =
  | 'manage' | 'provide' | 'inspect' | 'deploy' | 'rebuild' | 'delete' | 'clean' | 'adopt'
  | 'rescue' | 'unrescue' | 'abort' | 'unhold' | 'service'
  | 'done' | 'fail' | 'wait' | 'resume' | 'hold';

/** Each state with its stable target (`null` for stable states themselves). */
export const STATES: Readonly<Record<ProvisionState, { stable: boolean; target: ProvisionState | null }>> = {
  [S.ENROLL]: { stable: true, target: null },
  [S.MANAGEABLE]: { stable: true, target: null },
  [S.AVAILABLE]: { stable: true, target: null },
  [S.ACTIVE]: { stable: true, target: null },
  [S.ERROR]: { stable: true, target: null },
  [S.RESCUE]: { stable: true, target: null },
  [S.VERIFYING]: { stable: false, target: S.MANAGEABLE },
  [S.INSPECTING]: { stable: false, target: S.MANAGEABLE },
  [S.INSPECTWAIT]: { stable: false, target: S.MANAGEABLE },
  [S.INSPECTFAIL]: { stable: false, target: S.MANAGEABLE },
  [S.CLEANING]: { stable: false, target: S.AVAILABLE },
  [S.CLEANWAIT]: { stable: false, target: S.AVAILABLE },
  [S.CLEANHOLD]: { stable: false, target: S.AVAILABLE },
  [S.CLEANFAIL]: { stable: false, target: S.AVAILABLE },
  [S.DEPLOYING]: { stable: false, target: S.ACTIVE },
  [S.DEPLOYWAIT]: { stable: false, target: S.ACTIVE },
  [S.DEPLOYHOLD]: { stable: false, target: S.ACTIVE },
  [S.DEPLOYFAIL]: { stable: false, target: S.ACTIVE },
  [S.DELETING]: { stable: false, target: S.AVAILABLE },
  [S.RESCUING]: { stable: false, target: S.RESCUE },
  [S.RESCUEWAIT]: { stable: false, target: S.RESCUE },
  [S.RESCUEFAIL]: { stable: false, target: S.RESCUE },
  [S.UNRESCUING]: { stable: false, target: S.ACTIVE },
  [S.UNRESCUEFAIL]: { stable: false, target: S.ACTIVE },
  [S.ADOPTING]: { stable: false, target: S.ACTIVE },
  [S.ADOPTFAIL]: { stable: false, target: S.ACTIVE },
  [S.SERVICING]: { stable: false, target: S.ACTIVE },
  [S.SERVICEWAIT]: { stable: false, target: S.ACTIVE },
  [S.SERVICEHOLD]: { stable: false, target: S.ACTIVE },
  [S.SERVICEFAIL]: { stable: false, target: S.ACTIVE },
};

type Transition = readonly [from: ProvisionState, event: ProvisionEvent, to: ProvisionState];

/** Every allowed transition. */
export const TRANSITIONS: readonly Transition[] = [
  // verification
  [S.ENROLL, 'manage', S.VERIFYING],
  [S.VERIFYING, 'done', S.MANAGEABLE],
  [S.VERIFYING, 'fail', S.ENROLL],
  // inspection
  [S.MANAGEABLE, 'inspect', S.INSPECTING],
  [S.INSPECTING, 'wait', S.INSPECTWAIT],
  [S.INSPECTING, 'done', S.MANAGEABLE],
  [S.INSPECTING, 'fail', S.INSPECTFAIL],
  [S.INSPECTWAIT, 'done', S.MANAGEABLE],
  [S.INSPECTWAIT, 'fail', S.INSPECTFAIL],
  [S.INSPECTWAIT, 'abort', S.INSPECTFAIL],
  [S.INSPECTWAIT, 'resume', S.INSPECTING],
  [S.INSPECTFAIL, 'manage', S.MANAGEABLE],
  [S.INSPECTFAIL, 'inspect', S.INSPECTING],
  // cleaning (automated via provide, manual via clean)
  [S.MANAGEABLE, 'provide', S.CLEANING],
  [S.MANAGEABLE, 'clean', S.CLEANING],
  [S.CLEANING, 'done', S.AVAILABLE],
  [S.CLEANING, 'manage', S.MANAGEABLE],
  [S.CLEANING, 'wait', S.CLEANWAIT],
  [S.CLEANING, 'fail', S.CLEANFAIL],
  [S.CLEANING, 'hold', S.CLEANHOLD],
  [S.CLEANWAIT, 'resume', S.CLEANING],
  [S.CLEANWAIT, 'fail', S.CLEANFAIL],
  [S.CLEANWAIT, 'abort', S.CLEANFAIL],
  [S.CLEANWAIT, 'hold', S.CLEANHOLD],
  [S.CLEANHOLD, 'unhold', S.CLEANWAIT],
  [S.CLEANHOLD, 'abort', S.CLEANFAIL],
  [S.CLEANFAIL, 'manage', S.MANAGEABLE],
  [S.AVAILABLE, 'manage', S.MANAGEABLE],
  // deployment
  [S.AVAILABLE, 'deploy', S.DEPLOYING],
  [S.DEPLOYING, 'wait', S.DEPLOYWAIT],
  [S.DEPLOYING, 'done', S.ACTIVE],
  [S.DEPLOYING, 'fail', S.DEPLOYFAIL],
  [S.DEPLOYING, 'hold', S.DEPLOYHOLD],
  [S.DEPLOYWAIT, 'resume', S.DEPLOYING],
  [S.DEPLOYWAIT, 'fail', S.DEPLOYFAIL],
  [S.DEPLOYWAIT, 'abort', S.DEPLOYFAIL],
  [S.DEPLOYWAIT, 'hold', S.DEPLOYHOLD],
  [S.DEPLOYHOLD, 'unhold', S.DEPLOYWAIT],
  [S.DEPLOYHOLD, 'abort', S.DEPLOYFAIL],
  [S.DEPLOYFAIL, 'deploy', S.DEPLOYING],
  [S.DEPLOYFAIL, 'rebuild', S.DEPLOYING],
  [S.ACTIVE, 'rebuild', S.DEPLOYING],
  [S.ERROR, 'rebuild', S.DEPLOYING],
  // tear down
  [S.ACTIVE, 'delete', S.DELETING],
  [S.DEPLOYWAIT, 'delete', S.DELETING],
  [S.DEPLOYFAIL, 'delete', S.DELETING],
  [S.ERROR, 'delete', S.DELETING],
  [S.DELETING, 'clean', S.CLEANING],
  [S.DELETING, 'fail', S.ERROR],
  // rescue
  [S.ACTIVE, 'rescue', S.RESCUING],
  [S.RESCUING, 'wait', S.RESCUEWAIT],
  [S.RESCUING, 'done', S.RESCUE],
  [S.RESCUING, 'fail', S.RESCUEFAIL],
  [S.RESCUEWAIT, 'resume', S.RESCUING],
  [S.RESCUEWAIT, 'fail', S.RESCUEFAIL],
  [S.RESCUEWAIT, 'abort', S.RESCUEFAIL],
  [S.RESCUE, 'rescue', S.RESCUING],
  [S.RESCUEFAIL, 'rescue', S.RESCUING],
  [S.UNRESCUEFAIL, 'rescue', S.RESCUING],
  [S.RESCUE, 'unrescue', S.UNRESCUING],
  [S.RESCUEFAIL, 'unrescue', S.UNRESCUING],
  [S.UNRESCUEFAIL, 'unrescue', S.UNRESCUING],
  [S.UNRESCUING, 'done', S.ACTIVE],
  [S.UNRESCUING, 'fail', S.UNRESCUEFAIL],
  [S.RESCUE, 'delete', S.DELETING],
  [S.RESCUEWAIT, 'delete', S.DELETING],
  [S.RESCUEFAIL, 'delete', S.DELETING],
  [S.UNRESCUEFAIL, 'delete', S.DELETING],
  // adoption
  [S.MANAGEABLE, 'adopt', S.ADOPTING],
  [S.ADOPTING, 'done', S.ACTIVE],
  [S.ADOPTING, 'fail', S.ADOPTFAIL],
  [S.ADOPTFAIL, 'adopt', S.ADOPTING],
  [S.ADOPTFAIL, 'manage', S.MANAGEABLE],
  // servicing
  [S.ACTIVE, 'service', S.SERVICING],
  [S.SERVICING, 'wait', S.SERVICEWAIT],
  [S.SERVICING, 'done', S.ACTIVE],
  [S.SERVICING, 'fail', S.SERVICEFAIL],
  [S.SERVICING, 'hold', S.SERVICEHOLD],
  [S.SERVICEWAIT, 'resume', S.SERVICING],
  [S.SERVICEWAIT, 'fail', S.SERVICEFAIL],
  [S.SERVICEWAIT, 'abort', S.SERVICEFAIL],
  [S.SERVICEWAIT, 'hold', S.SERVICEHOLD],
  [S.SERVICEWAIT, 'delete', S.DELETING],
  [S.SERVICEHOLD, 'unhold', S.SERVICEWAIT],
  [S.SERVICEHOLD, 'service', S.SERVICING],
  [S.SERVICEHOLD, 'fail', S.SERVICEFAIL],
  [S.SERVICEHOLD, 'abort', S.SERVICEFAIL],
  [S.SERVICEFAIL, 'service', S.SERVICING],
  [S.SERVICEFAIL, 'rescue', S.RESCUING],
  [S.SERVICEFAIL, 'abort', S.ACTIVE],
  [S.SERVICEFAIL, 'wait', S.SERVICEWAIT],
  [S.SERVICEFAIL, 'hold', S.SERVICEHOLD],
  [S.SERVICEFAIL, 'delete', S.DELETING],
];

/** API verbs of `PUT /v1/nodes/{node}/states/provision` with their event and the microversion that added them. */
export const VERBS = {
  active: { event: 'deploy', minVersion: 1 },
  rebuild: { event: 'rebuild', minVersion: 1 },
  deleted: { event: 'delete', minVersion: 1 },
  manage: { event: 'manage', minVersion: 4 },
  provide: { event: 'provide', minVersion: 4 },
  inspect: { event: 'inspect', minVersion: 6 },
  abort: { event: 'abort', minVersion: 13 },
  clean: { event: 'clean', minVersion: 15 },
  adopt: { event: 'adopt', minVersion: 17 },
  rescue: { event: 'rescue', minVersion: 38 },
  unrescue: { event: 'unrescue', minVersion: 38 },
  deploy: { event: 'deploy', minVersion: 73 },
  undeploy: { event: 'delete', minVersion: 73 },
  unhold: { event: 'unhold', minVersion: 85 },
  service: { event: 'service', minVersion: 87 },
} as const satisfies Record<string, { event: ProvisionEvent; minVersion: number }>;

export type ProvisionVerb = keyof typeof VERBS;

/** Stable states. */
export const STABLE_STATES: readonly ProvisionState[] = (Object.keys(STATES) as ProvisionState[]).filter((s) => STATES[s].stable);

/** States in which a node record may be deleted (others need maintenance mode). */
export const DELETE_ALLOWED_STATES: readonly ProvisionState[] = [S.MANAGEABLE, S.ENROLL, S.ADOPTFAIL];

/** States in which the driver and interfaces of a node may change (or the node is in maintenance). */
export const INTERFACE_UPDATE_STATES: readonly ProvisionState[] = [S.ENROLL, S.INSPECTING, S.MANAGEABLE, S.AVAILABLE];

/** States (besides stable ones) in which a node may be updated at all. */
export const UPDATE_ALLOWED_STATES: readonly ProvisionState[] = [
  S.DEPLOYFAIL, S.INSPECTING, S.INSPECTFAIL, S.INSPECTWAIT, S.CLEANFAIL, S.ERROR, S.VERIFYING,
  S.ADOPTFAIL, S.RESCUEFAIL, S.UNRESCUEFAIL, S.SERVICEFAIL,
];

/** States where the agent calls back; a node left in one longer than its timeout fails. */
export const WAIT_STATES: readonly ProvisionState[] = [S.INSPECTWAIT, S.CLEANWAIT, S.DEPLOYWAIT, S.RESCUEWAIT, S.SERVICEWAIT];

/** Busy states a conductor works in: when it dies the work cannot be resumed and the node fails. */
export const STUCK_STATES_TREATED_AS_FAIL: readonly ProvisionState[] = [
  S.DEPLOYING, S.CLEANING, S.VERIFYING, S.INSPECTING, S.ADOPTING, S.RESCUING, S.UNRESCUING, S.DELETING, S.SERVICING,
];

/** States a node moves out of without a request (Ironic's `UNSTABLE_STATES`): busy and waiting ones. */
export const TRANSITIONING_STATES: readonly ProvisionState[] = [...STUCK_STATES_TREATED_AS_FAIL, ...WAIT_STATES];

/** States in which the ramdisk agent may look its node up (Ironic `LOOKUP_ALLOWED_STATES`). */
export const LOOKUP_ALLOWED_STATES: readonly ProvisionState[] = [
  S.DEPLOYING, S.DEPLOYWAIT, S.CLEANING, S.CLEANWAIT, S.INSPECTING, S.INSPECTWAIT, S.RESCUING, S.RESCUEWAIT, S.SERVICING, S.SERVICEWAIT,
];

/**
 * States in which an agent may look up a node with fast track on (Ironic `FASTTRACK_LOOKUP_ALLOWED_STATES`):
 * also the stable states an agent keeps running in between phases.
 */
export const FAST_TRACK_LOOKUP_ALLOWED_STATES: readonly ProvisionState[] = [
  S.ENROLL, S.MANAGEABLE, S.AVAILABLE, ...LOOKUP_ALLOWED_STATES, S.SERVICEHOLD,
];

/**
 * States in which a heartbeat of the node's agent is taken (Ironic `HEARTBEAT_ALLOWED`): those of a
 * lookup and the holds, where the agent waits too; in any other state it is answered and ignored.
 */
export const HEARTBEAT_ALLOWED_STATES: readonly ProvisionState[] = [...LOOKUP_ALLOWED_STATES, S.DEPLOYHOLD, S.CLEANHOLD, S.SERVICEHOLD];

/** States in which a heartbeat is taken with fast track on (Ironic `FASTTRACK_HEARTBEAT_ALLOWED`). */
export const FAST_TRACK_HEARTBEAT_ALLOWED_STATES: readonly ProvisionState[] = [S.ENROLL, S.MANAGEABLE, S.AVAILABLE, ...HEARTBEAT_ALLOWED_STATES];

/** The kinds of step flows (`clean_steps`, `deploy_steps`, `service_steps`). */
export type StepKind = 'clean' | 'deploy' | 'service';

/** The state a flow of each kind waits in, for the ramdisk agent or after `unhold`. */
export const STEP_WAIT_STATES: Readonly<Record<StepKind, ProvisionState>> = { clean: S.CLEANWAIT, deploy: S.DEPLOYWAIT, service: S.SERVICEWAIT };

/** The kind of step flow that waits in `state`, or null when none does there. */
export function stepKindWaitingIn(state: ProvisionState): StepKind | null {
  return (Object.keys(STEP_WAIT_STATES) as StepKind[]).find((k) => STEP_WAIT_STATES[k] === state) ?? null;
}

const INDEX = new Map<string, ProvisionState>(TRANSITIONS.map(([from, ev, to]) => [`${from}\u0000${ev}`, to]));

/** The state `event` leads to from `from`, or `undefined` when the machine does not allow it. */
export function transition(from: ProvisionState, event: ProvisionEvent): ProvisionState | undefined {
  return INDEX.get(`${from}\u0000${event}`);
}

/** The events allowed from `from`. */
export function eventsFrom(from: ProvisionState): ProvisionEvent[] {
  return TRANSITIONS.filter(([f]) => f === from).map(([, ev]) => ev);
}

/** The failure state a busy state falls into when its work is lost or fails. */
export function failureStateOf(state: ProvisionState): ProvisionState | undefined {
  return transition(state, 'fail');
}

/** Events that continue the operation the node is in, so its target stays (e.g. `manageable` for a manual clean). */
const CONTINUING: ReadonlySet<ProvisionEvent> = new Set<ProvisionEvent>(['wait', 'resume', 'hold', 'unhold', 'fail', 'abort']);

/**
 * target_provision_state after `event` moved the node to `to`: null in a stable state; the current
 * target when the event continues the same operation (waits, holds, failures and aborts of a manual
 * clean keep `manageable`); otherwise the stable state `to` is heading for.
 */
export function targetAfter(event: ProvisionEvent, to: ProvisionState, current: ProvisionState | null): ProvisionState | null {
  if (STATES[to].stable) return null;
  if (CONTINUING.has(event) && current !== null) return current;
  return STATES[to].target;
}

/** True when `value` names a provision state. */
export function isProvisionState(value: string): value is ProvisionState {
  return Object.prototype.hasOwnProperty.call(STATES, value);
}

export function isVerb(value: string): value is ProvisionVerb {
  return Object.prototype.hasOwnProperty.call(VERBS, value);
}
