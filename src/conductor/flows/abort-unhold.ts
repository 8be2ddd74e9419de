/** `abort` and `unhold`: leaving the wait and hold states on request. */
import { S, type ProvisionState } from '../../domain/states.js';
import { fail } from '../../shared/errors.js';
import type { Task } from '../task.js';
import { resumeAfterHold } from './phases.js';

const ABORT_TEXT: Partial<Record<ProvisionState, string>> = {
  [S.CLEANWAIT]: 'By request, the clean operation was aborted. Move the node to manageable and clean or provide it again.',
  [S.CLEANHOLD]: 'By request, the clean operation was aborted. Move the node to manageable and clean or provide it again.',
  [S.INSPECTWAIT]: 'By request, the inspection was aborted. Inspect the node again or move it to manageable.',
  [S.RESCUEWAIT]: 'By request, the rescue operation was aborted. Rescue again or unrescue the node.',
  [S.DEPLOYWAIT]: 'By request, the deploy operation was aborted. Deploy again or undeploy the node.',
  [S.DEPLOYHOLD]: 'By request, the deploy operation was aborted. Deploy again or undeploy the node.',
  [S.SERVICEWAIT]: 'By request, the service operation was aborted. Service again or abort to return the node to active.',
  [S.SERVICEHOLD]: 'By request, the service operation was aborted. Service again or abort to return the node to active.',
};

/** Aborts the wait/hold the node is in (the caller checked the transition exists). */
export async function abortAction(task: Task): Promise<void> {
  const state = task.node.provision_state;
  task.set({ clean_step: {}, deploy_step: {}, service_step: {} });
  if (state === S.SERVICEFAIL) {
    await task.process('abort', { lastError: null });
    return;
  }
  const text = ABORT_TEXT[state];
  if (!text) throw fail('InvalidStateRequested', { action: 'abort', node: task.node.uuid, state });
  // An inspection delegated to another service (the `inspector` interface) is cancelled there first; if
  // that fails the node stays in inspect wait and the error reaches the caller (as in Ironic).
  const inspect = task.driver.inspect;
  if (state === S.INSPECTWAIT && inspect.abort) await inspect.abort(task.driverTask());
  await task.process('abort', { lastError: text });
}

/**
 * `* hold` -> `* wait`. A flow the ramdisk agent carries continues on its next heartbeat (the deploy
 * interface's heartbeat handling says so); others (fake) have no agent, so the conductor resumes the
 * saved steps itself.
 */
export async function unholdAction(task: Task): Promise<((signal: AbortSignal) => Promise<void>) | null> {
  await task.process('unhold');
  if (task.driver.deploy.heartbeat?.continues(task.driverTask())) return null;
  return (signal) => resumeAfterHold(task, signal);
}
