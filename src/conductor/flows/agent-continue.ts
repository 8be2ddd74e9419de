/**
 * What an agent's heartbeat does to an agent-driven flow waiting for it (Ironic's
 * `HeartbeatMixin.heartbeat`): in `wait call-back` or `clean wait`, the command the current step sent is
 * looked up on the agent. Still running: nothing (the heartbeat shows the agent alive). Failed: the flow
 * fails with the agent's own error. Done (or no command yet: the agent just came up): the node resumes
 * and the next steps run until one waits again or the phase ends.
 */
import type { Json } from '../../domain/node.js';
import { S } from '../../domain/states.js';
import { commandErrorText } from '../../drivers/agent/client.js';
import { fail } from '../../shared/errors.js';
import { collectAgentLogs } from '../agent-logs.js';
import type { Task } from '../task.js';
import { clearPendingCommand, pendingCommand } from './agent-boot.js';
import { finishCleaning, finishDeploy } from './phases.js';
import { recordStep, runSteps, type StepKind } from './steps.js';

/** The step kind a heartbeat continues for this node now, or null when it continues nothing. */
export function heartbeatContinues(task: Task): StepKind | null {
  const node = task.node;
  if (node.maintenance) return null;
  if (node.provision_state === S.DEPLOYWAIT && task.driver.deploy.waitsForAgent) return 'deploy';
  if (node.provision_state === S.CLEANWAIT && task.driver.deploy.cleansWithAgent) return 'clean';
  return null;
}

/** `root_uuid=<id>` of IPA's prepare_image message. */
function rootUuidOf(result: unknown): string | null {
  const m = typeof result === 'string' ? /root_uuid=(\S+)/.exec(result) : null;
  return m ? (m[1] as string) : null;
}

/** Continues the node's agent-driven flow after a heartbeat (see module doc); runs in a worker with the lock. */
export async function continueAgentFlow(task: Task, signal: AbortSignal): Promise<void> {
  const kind = heartbeatContinues(task);
  if (!kind) return;
  const pending = pendingCommand(task.node);
  if (pending?.command === null) {
    clearPendingCommand(task);
    await recordStep(task, kind, pending.step, Math.max(0, task.ctx.clock.now() - Date.parse(pending.started_at)));
  } else if (pending) {
    const result = await task.ctx.agent.lastCommand(task.node, pending.command, signal);
    if (result === null) {
      throw fail('DriverOperationError', `The agent has no record of the ${pending.command} command of step ${pending.step}: it restarted or is another agent.`);
    }
    if (result.command_status === 'RUNNING') return;
    if (result.command_status !== 'SUCCEEDED') {
      throw fail('DriverOperationError', `The agent failed ${kind} step ${pending.step}: ${commandErrorText(result)}`);
    }
    clearPendingCommand(task);
    if (pending.command === 'prepare_image') {
      const root = rootUuidOf(result.command_result);
      const info: Record<string, Json> = { ...task.node.driver_internal_info, is_whole_disk_image: true };
      if (root) info.root_uuid_or_disk_id = root;
      task.set({ driver_internal_info: info });
      await task.record('deploy', `agent: ${typeof result.command_result === 'string' ? result.command_result : 'image written'}`, 'INFO', null);
      await collectAgentLogs(task, 'success');
    }
    await recordStep(task, kind, pending.step, Math.max(0, task.ctx.clock.now() - Date.parse(pending.started_at)));
  }
  await task.process('resume');
  if ((await runSteps(task, kind, signal)) !== 'done') return;
  if (kind === 'deploy') await finishDeploy(task, signal);
  else await finishCleaning(task, signal);
}
