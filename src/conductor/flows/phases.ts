/**
 * The slow parts of the provision flows, each run in a worker while the task holds the node lock. They
 * start in the busy state the request moved the node to and end with the `done` (or `wait`/`hold`)
 * transition; errors propagate to the flow's error handler (run.ts).
 */
import type { JsonObject } from '../../domain/node.js';
import type { NodeChanges } from '../../db/store.js';
import { S } from '../../domain/states.js';
import { isoTime } from '../../shared/clock.js';
import { addDiscoveredPorts } from '../port-ops.js';
import type { Task } from '../task.js';
import { wipeAgentToken } from '../agent-callbacks.js';
import { releaseAgentImage } from '../agent-image.js';
import { bootAgentRamdisk, endAgentRamdisk } from './agent-boot.js';
import { defaultAgentSteps, isAgentStep } from './agent-steps.js';
import { fastTrackEnabled, keepsRunningAgent, useRunningAgent } from './fast-track.js';
import { nextStepAfter } from './next-steps.js';
import { powerOffOrReboot, powerOffUnlessDisabled, powerOnOrReboot, rebootIfKeptOn } from './power.js';
import { checkAborted, reasonOf, type FlowHandlers } from './run.js';
import { collectAgentLogs } from '../agent-logs.js';
import { runSteps, storeSteps, type Step } from './steps.js';

/** enroll -> verifying -> manageable: the power credentials must work. */
export async function verify(task: Task, signal: AbortSignal): Promise<void> {
  const dt = task.driverTask(signal);
  await task.driver.power.validate(dt);
  await task.driver.management.validate(dt);
  const power = await task.driver.power.getPowerState(dt);
  task.set({ power_state: power });
  await task.process('done', { lastError: null });
}

/** inspecting -> manageable (or inspect wait when the inspector waits for the agent). */
export async function inspect(task: Task, signal: AbortSignal): Promise<void> {
  // A driver_info fast_track that is no boolean fails here, before the machine boots, not at the end.
  fastTrackEnabled(task.node, task.ctx.config);
  task.set({ inspection_started_at: isoTime(task.ctx.clock.now()), inspection_finished_at: null });
  // A new ramdisk boot looks its node up again and gets a new agent token.
  wipeAgentToken(task);
  await task.save();
  // In-band: the inspection is registered before the machine boots the ramdisk, so that data from a fast
  // ramdisk always finds it (the `inspector` interface starts it on the external service first, as Ironic does).
  const result = await task.driver.inspect.inspectHardware(task.driverTask(signal));
  if (task.driver.inspect.bootsRamdisk) await bootAgentRamdisk(task, signal, 'inspect');
  if (result === 'wait') {
    await task.process('wait');
    return;
  }
  const ports = await addDiscoveredPorts(task);
  if (ports) await task.record('inspection', ports, 'INFO', null);
  task.set({ inspection_finished_at: isoTime(task.ctx.clock.now()) });
  await task.process('done', { lastError: null });
}

/**
 * Ends cleaning: tear down, power off (a node with disable_power_off is rebooted instead, out of the
 * ramdisk), then available (automated) or manageable (manual). With fast track the agent keeps running
 * and the machine stays on.
 */
export async function finishCleaning(task: Task, signal: AbortSignal): Promise<void> {
  const manual = task.node.target_provision_state === S.MANAGEABLE;
  await task.driver.deploy.tearDownCleaning(task.driverTask(signal));
  const keepAgent = await keepsRunningAgent(task, signal);
  await endAgentRamdisk(task, signal, { keepAgent });
  if (keepAgent) await task.record('agent', 'fast track: the agent keeps running after cleaning; the machine stays on', 'INFO', null);
  else await powerOffOrReboot(task, signal, 'at the end of cleaning');
  checkAborted(signal);
  await task.process(manual ? 'manage' : 'done', { lastError: null });
}

/**
 * cleaning -> available|manageable. Automated cleaning runs only when the node does not disable it
 * (`automated_clean` false) and the conductor's `automated_clean` is on (a node's true wins).
 */
export async function clean(task: Task, signal: AbortSignal, manualSteps: Step[] | null): Promise<void> {
  if (!manualSteps) {
    const enabled = task.node.automated_clean ?? task.ctx.config.automated_clean;
    if (!enabled) {
      await task.process('done', { lastError: null });
      return;
    }
  }
  if (task.driver.deploy.cleansWithAgent) {
    await cleanWithAgent(task, signal, manualSteps);
    return;
  }
  storeSteps(task, 'clean', manualSteps ?? []);
  await task.save();
  if ((await task.driver.deploy.prepareCleaning(task.driverTask(signal))) === 'wait') {
    await task.process('wait');
    return;
  }
  if ((await runSteps(task, 'clean', signal)) !== 'done') return;
  await finishCleaning(task, signal);
}

/**
 * In-band cleaning: the automated steps are the agent's defaults (erase_devices_metadata); none left, or
 * no step that needs the agent: the steps run here without booting the ramdisk. Otherwise the machine
 * boots the clean ramdisk and its agent's heartbeats run the steps (agent-continue.ts) — or, with fast
 * track, the agent still running from the previous phase runs them at once.
 */
async function cleanWithAgent(task: Task, signal: AbortSignal, manualSteps: Step[] | null): Promise<void> {
  const steps = manualSteps ?? defaultAgentSteps(task, 'clean');
  storeSteps(task, 'clean', steps);
  await task.save();
  if (!steps.some((s) => isAgentStep(task, 'clean', s))) {
    if ((await runSteps(task, 'clean', signal)) === 'done') await finishCleaning(task, signal);
    return;
  }
  if (await useRunningAgent(task, signal, 'clean')) {
    await task.driver.deploy.prepareCleaning(task.driverTask(signal));
    if ((await runSteps(task, 'clean', signal)) === 'done') await finishCleaning(task, signal);
    return;
  }
  await bootAgentRamdisk(task, signal, 'clean');
  await task.driver.deploy.prepareCleaning(task.driverTask(signal));
  await task.process('wait');
}

/** Ends a deployment: boot the instance, tenant network, power on (reboot with disable_power_off), active. */
export async function finishDeploy(task: Task, signal: AbortSignal): Promise<void> {
  const dt = task.driverTask(signal);
  // An agent deploy did this in its steps (prepare_instance_boot … boot_instance).
  if (!task.driver.deploy.waitsForAgent) {
    await task.driver.boot.prepareInstance(dt);
    await task.driver.network.configureTenantNetworks(dt);
    await powerOnOrReboot(task, signal);
  }
  checkAborted(signal);
  task.set({ conductor_affinity: task.ctx.conductorId, deploy_step: {} });
  await task.process('done', { lastError: null });
}

/** deploying -> active: deploy steps (the interface's `deploy` at priority 100 plus the user's), then finish. */
export async function deploy(task: Task, signal: AbortSignal, userSteps: Step[]): Promise<void> {
  const dt = task.driverTask(signal);
  // A user step of the same name replaces the interface's default (priority 0 drops it).
  const defaults = defaultAgentSteps(task, 'deploy').filter((d) => !userSteps.some((u) => u.interface === d.interface && u.step === d.step));
  const steps = [{ interface: 'deploy', step: 'deploy', args: {}, priority: 100 } as Step, ...defaults, ...userSteps.filter((u) => u.priority > 0)]
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
  await powerOffUnlessDisabled(task, signal, 'for the tear-down');
  await task.driver.deploy.tearDown(dt);
  await task.driver.boot.cleanUpInstance(dt);
  if (task.driver.deploy.waitsForAgent) await releaseAgentImage(task.ctx, task.node);
  await task.driver.storage.detachVolumes(dt);
  await task.driver.deploy.cleanUp(dt);
  await rebootIfKeptOn(task, signal);
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
  task.set({ service_step: {} });
  await task.process('done', { lastError: null });
}

/** After `unhold`: `* wait` -> resume -> continue the saved steps and finish the phase. */
export async function resumeAfterHold(task: Task, signal: AbortSignal): Promise<void> {
  const state = task.node.provision_state;
  if (state === S.CLEANWAIT) {
    await task.process('resume');
    if ((await runSteps(task, 'clean', signal)) === 'done') await finishCleaning(task, signal);
  } else if (state === S.DEPLOYWAIT) {
    await task.process('resume');
    if ((await runSteps(task, 'deploy', signal)) === 'done') await finishDeploy(task, signal);
  } else if (state === S.SERVICEWAIT) {
    await task.process('resume');
    if ((await runSteps(task, 'service', signal)) === 'done') {
      task.set({ service_step: {} });
      await task.process('done', { lastError: null });
    }
  }
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
      const file = await collectAgentLogs(task, 'failure');
      return file ? `Agent logs: ${file}` : null;
    },
  };
}

/** Applies {@link failureChanges} to the task's node. */
export function failureExtras(task: Task): void {
  task.set(failureChanges(task.node.provision_state));
}
