/**
 * What a heartbeat of the ramdisk agent does to a flow waiting for it (Ironic's `HeartbeatMixin.heartbeat`
 * and `AgentBaseMixin.process_next_step`): in `wait call-back` or `clean wait`, the command the current
 * step sent is looked up on the agent. Still running: nothing (the heartbeat shows the agent alive).
 * Failed: the flow fails with the agent's own error. Done (or no command yet: the agent just came up):
 * the conductor resumes the node and runs the next steps until one waits again or the phase ends.
 */
import { stepKindWaitingIn, type StepKind } from '../../domain/states.js';
import type { AgentCommandResult } from '../../protocol/agent/commands.js';
import { fail } from '../../shared/errors.js';
import type { DriverTask } from '../interfaces/base.js';
import type { HeartbeatHandling } from '../interfaces/deploy.js';
import { commandErrorText } from './client.js';
import { clearPendingCommand, pendingCommand } from './pending-command.js';

/** What a deploy interface does once the agent's `command` succeeded, before the flow resumes (by command name). */
export type AfterCommand = Readonly<Record<string, (task: DriverTask, result: AgentCommandResult) => Promise<void>>>;

/** The heartbeat handling of an interface that runs flows of `kinds` with the agent; `after` as {@link AfterCommand}. */
export function agentHeartbeat(kinds: readonly StepKind[], after: AfterCommand = {}): HeartbeatHandling {
  return {
    continues(task) {
      if (task.node.maintenance) return null;
      const kind = stepKindWaitingIn(task.node.provision_state);
      return kind !== null && kinds.includes(kind) ? kind : null;
    },
    async process(task, kind) {
      const pending = pendingCommand(task.node);
      if (pending === null) return { resume: true };
      const since = () => Math.max(0, task.clock.now() - Date.parse(pending.started_at));
      if (pending.command === null) {
        clearPendingCommand(task);
        return { resume: true, finished: { step: pending.step, durationMs: since() } };
      }
      const result = await task.agent.client.lastCommand(task.node, pending.command, task.signal);
      if (result === null) {
        throw fail('agentForgotCommand', { command: pending.command, step: pending.step });
      }
      if (result.command_status === 'RUNNING') return { resume: false };
      if (result.command_status !== 'SUCCEEDED') {
        throw fail('agentStepFailed', { kind, step: pending.step, reason: commandErrorText(result) });
      }
      clearPendingCommand(task);
      await after[pending.command]?.(task, result);
      return { resume: true, finished: { step: pending.step, durationMs: since() } };
    },
  };
}
