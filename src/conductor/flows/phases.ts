/**
 * The slow parts of the provision flows, each run in a worker while the task holds the node lock. They
 * start in the busy state the request moved the node to and end with the `done` (or `wait`/`hold`)
 * transition; errors propagate to the flow's error handler (run.ts). What happens to the machine is the
 * node's interfaces' business (Ironic's `deployments.py`, `cleaning.py`, `servicing.py`): the deploy
 * interface prepares and ends cleaning and ends a deployment, the steps are its and its siblings'.
 */
import type { JsonObject } from '../../domain/node.js';
import type { NodeChanges } from '../../db/store.js';
import { S, stepKindWaitingIn, type StepKind } from '../../domain/states.js';
import { fastTrackEnabled } from '../../drivers/agent/fast-track.js';
import { collectAgentLogs } from '../../drivers/agent/logs.js';
import { wipeAgentToken } from '../../drivers/agent/token.js';
import { powerOffUnlessDisabled, rebootIfKeptOn } from '../../drivers/power-actions.js';
import { checkAborted } from '../../shared/abort.js';
import { isoTime } from '../../shared/clock.js';
import { addDiscoveredPorts } from '../port-ops.js';
import type { Task } from '../task.js';
import { nextStepAfter } from './next-steps.js';
import { reasonOf, type FlowHandlers } from './run.js';
import { defaultSteps, runSteps, storeSteps, type Step } from './steps.js';

/** enroll -> verifying -> manageable: the power credentials must work. */
export async function verify(task: Task, signal: AbortSignal): Promise<void> {
  const dt = task.driverTask(signal);
  await task.driver.power.validate(dt);
  await task.driver.management.validate(dt);
  const power = await task.driver.power.getPowerState(dt);
  task.set({ power_state: power });
  await task.process('done', { lastError: null });
}

/** inspecting -> manageable (or inspect wait while the agent or an external ironic-inspector works). */
export async function inspect(task: Task, signal: AbortSignal): Promise<void> {
  // A driver_info fast_track that is no boolean fails here, before the machine boots, not at the end.
  fastTrackEnabled(task.node, task.ctx.config);
  task.set({ inspection_started_at: isoTime(task.ctx.clock.now()), inspection_finished_at: null });
  // A new ramdisk boot looks its node up again and gets a new agent token.
  wipeAgentToken(task.driverTask());
  await task.save();
  // In-band inspect interfaces boot the ramdisk themselves; the node then waits for its data.
  const result = await task.driver.inspect.inspectHardware(task.driverTask(signal));
  if (result === 'wait') {
    await task.process('wait');
    return;
  }
  const ports = await addDiscoveredPorts(task);
  if (ports) await task.record('inspection', ports, 'INFO', null);
  task.set({ inspection_finished_at: isoTime(task.ctx.clock.now()) });
  await task.process('done', { lastError: null });
}

/** Ends cleaning: the deploy interface tears it down (the clean ramdisk, the power-off), then available (automated) or manageable (manual). */
export async function finishCleaning(task: Task, signal: AbortSignal): Promise<void> {
  const manual = task.node.target_provision_state === S.MANAGEABLE;
  await task.driver.deploy.tearDownCleaning(task.driverTask(signal));
  checkAborted(signal);
  await task.process(manual ? 'manage' : 'done', { lastError: null });
}

/**
 * cleaning -> available|manageable. Automated cleaning runs only when the node does not disable it
 * (`automated_clean` false) and the conductor's `automated_clean` is on (a node's true wins); its steps
 * are the interfaces' defaults. The deploy interface readies the machine for the steps: `wait` when it
 * booted the clean ramdisk, whose agent's heartbeats then run them.
 */
export async function clean(task: Task, signal: AbortSignal, manualSteps: Step[] | null): Promise<void> {
  if (!manualSteps) {
    const enabled = task.node.automated_clean ?? task.ctx.config.automated_clean;
    if (!enabled) {
      await task.process('done', { lastError: null });
      return;
    }
  }
  const steps = manualSteps ?? defaultSteps(task, 'clean');
  storeSteps(task, 'clean', steps);
  await task.save();
  if ((await task.driver.deploy.prepareCleaning(task.driverTask(signal), steps)) === 'wait') {
    await task.process('wait');
    return;
  }
  if ((await runSteps(task, 'clean', signal)) !== 'done') return;
  await finishCleaning(task, signal);
}

/** Ends a deployment: the deploy interface leaves the instance running (unless its steps did), then active. */
export async function finishDeploy(task: Task, signal: AbortSignal): Promise<void> {
  await task.driver.deploy.finishDeploy(task.driverTask(signal));
  checkAborted(signal);
  task.set({ conductor_affinity: task.ctx.conductorId, deploy_step: {} });
  await task.process('done', { lastError: null });
}

/**
 * deploying -> active: deploy steps (the interfaces' defaults, among them the core `deploy.deploy` at
 * priority 100, plus the user's), then finish.
 */
export async function deploy(task: Task, signal: AbortSignal, userSteps: Step[]): Promise<void> {
  const dt = task.driverTask(signal);
  // A user step of the same name replaces an interface's default (priority 0 drops it); the core step always runs.
  const isCore = (s: Step) => s.interface === 'deploy' && s.step === 'deploy';
  const defaults = defaultSteps(task, 'deploy').filter((d) => isCore(d) || !userSteps.some((u) => u.interface === d.interface && u.step === d.step));
  const steps = [...defaults, ...userSteps.filter((u) => u.priority > 0)]
    .map((s, i) => ({ s, i }))
    .sort((a, b) => b.s.priority - a.s.priority || a.i - b.i)
    .map(({ s }) => s);
  storeSteps(task, 'deploy', steps);
  await task.save();
  await task.driver.storage.attachVolumes(dt);
  await task.driver.deploy.prepare(dt);
  if ((await runSteps(task, 'deploy', signal)) !== 'done') return;
  await finishDeploy(task, signal);
}

/**
 * deleting -> cleaning -> available: power off, tear the instance down, forget it, clean. A node with
 * disable_power_off stays on and is rebooted once the instance's boot configuration is gone.
 */
export async function tearDown(task: Task, signal: AbortSignal): Promise<void> {
  const dt = task.driverTask(signal);
  await task.driver.network.unconfigureTenantNetworks(dt);
  await powerOffUnlessDisabled(dt, 'for the tear-down');
  await task.driver.deploy.tearDown(dt);
  await task.driver.boot.cleanUpInstance(dt);
  await task.driver.storage.detachVolumes(dt);
  await task.driver.deploy.cleanUp(dt);
  await rebootIfKeptOn(dt);
  const info = { ...task.node.driver_internal_info };
  for (const key of ['deploy_steps_pending', 'deploy_step_index', 'is_whole_disk_image', 'root_uuid_or_disk_id', 'agent_command', 'agent_ramdisk']) delete info[key];
  task.set({ instance_info: {}, instance_uuid: null, driver_internal_info: info, deploy_step: {}, conductor_affinity: null });
  checkAborted(signal);
  await task.process('clean');
  await clean(task, signal, null);
}

/** adopting -> active: take the running machine over without touching it. */
export async function adopt(task: Task, signal: AbortSignal): Promise<void> {
  const dt = task.driverTask(signal);
  await task.driver.deploy.takeOver(dt);
  task.set({ power_state: await task.driver.power.getPowerState(dt), conductor_affinity: task.ctx.conductorId });
  await task.process('done', { lastError: null });
}

/** rescuing -> rescue (or rescue wait). */
export async function rescue(task: Task, signal: AbortSignal): Promise<void> {
  const result = await task.driver.rescue.rescue(task.driverTask(signal));
  await task.process(result === 'wait' ? 'wait' : 'done', result === 'wait' ? {} : { lastError: null });
}

/** unrescuing -> active: the rescue password is forgotten. */
export async function unrescue(task: Task, signal: AbortSignal): Promise<void> {
  await task.driver.rescue.unrescue(task.driverTask(signal));
  const info: JsonObject = { ...task.node.instance_info };
  delete info['rescue_password'];
  delete info['hashed_rescue_password'];
  task.set({ instance_info: info });
  await task.process('done', { lastError: null });
}

/** servicing -> active: the service steps on a deployed machine. */
export async function service(task: Task, signal: AbortSignal, steps: Step[]): Promise<void> {
  storeSteps(task, 'service', steps);
  await task.save();
  if ((await runSteps(task, 'service', signal)) !== 'done') return;
  await finishService(task);
}

/** Ends servicing: active again. */
async function finishService(task: Task): Promise<void> {
  task.set({ service_step: {} });
  await task.process('done', { lastError: null });
}

/** How each kind of flow ends once its last step ran. */
const FINISH: Readonly<Record<StepKind, (task: Task, signal: AbortSignal) => Promise<void>>> = {
  clean: finishCleaning,
  deploy: finishDeploy,
  service: (task) => finishService(task),
};

/** `* wait` -> resume: continues the saved steps of the `kind` flow and finishes it (after a heartbeat of the agent, or `unhold`). */
export async function continueSteps(task: Task, kind: StepKind, signal: AbortSignal): Promise<void> {
  await task.process('resume');
  if ((await runSteps(task, kind, signal)) === 'done') await FINISH[kind](task, signal);
}

/** After `unhold`: the flow waiting in the node's state continues. */
export async function resumeAfterHold(task: Task, signal: AbortSignal): Promise<void> {
  const kind = stepKindWaitingIn(task.node.provision_state);
  if (kind) await continueSteps(task, kind, signal);
}

/** What failed, by the phase the node is in; `nextStepAfter` says what to do. */
const FAILED: Readonly<Partial<Record<string, (uuid: string) => string>>> = {
  [S.VERIFYING]: (u) => `Failed to verify node ${u}:`,
  [S.INSPECTING]: () => 'Failed to inspect hardware. Reason:',
  [S.INSPECTWAIT]: () => 'Failed to inspect hardware. Reason:',
  [S.CLEANING]: (u) => `Failed to clean node ${u}:`,
  [S.CLEANWAIT]: (u) => `Failed to clean node ${u}:`,
  [S.DEPLOYING]: (u) => `Failed to deploy node ${u}:`,
  [S.DEPLOYWAIT]: (u) => `Failed to deploy node ${u}:`,
  [S.DELETING]: (u) => `Failed to tear down node ${u}:`,
  [S.ADOPTING]: (u) => `Error while attempting to adopt node ${u}:`,
  [S.RESCUING]: (u) => `Failed to rescue node ${u}:`,
  [S.RESCUEWAIT]: (u) => `Failed to rescue node ${u}:`,
  [S.UNRESCUING]: (u) => `Failed to unrescue node ${u}:`,
  [S.SERVICING]: (u) => `Failed to service node ${u}:`,
  [S.SERVICEWAIT]: (u) => `Failed to service node ${u}:`,
};

/** `last_error` for a failure of the phase the node is in, with what to do next. */
export function describeFailure(task: Task, err: unknown): string {
  const { uuid, provision_state: state } = task.node;
  const what = FAILED[state]?.(uuid) ?? `Operation on node ${uuid} failed in state ${state}:`;
  return `${what} ${reasonOf(err)} ${nextStepAfter(state)}`;
}

/** Extra changes of a failure in `state`: a failed cleaning puts the node in maintenance with fault `clean failure` (Ironic). */
export function failureChanges(state: string): NodeChanges {
  return state === S.CLEANING || state === S.CLEANWAIT
    ? { maintenance: true, fault: 'clean failure', maintenance_reason: 'Cleaning failed; see last_error.' }
    : {};
}

/**
 * The failure handling of a provision flow: last_error by the phase, the phase's extra changes, and the
 * agent's logs fetched first when an agent serves the node (their file named in last_error).
 */
export function provisionFailureHandlers(task: Task, run: (signal: AbortSignal) => Promise<void>): FlowHandlers {
  return {
    run,
    describe: (err) => describeFailure(task, err),
    onFailure: (t) => failureExtras(t),
    async beforeFailure() {
      const file = await collectAgentLogs(task.driverTask(), 'failure');
      return file ? `Agent logs: ${file}` : null;
    },
  };
}

/** Applies {@link failureChanges} to the task's node. */
export function failureExtras(task: Task): void {
  task.set(failureChanges(task.node.provision_state));
}
