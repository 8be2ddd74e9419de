/**
 * Steps the ramdisk agent runs itself (Ironic's `agent_base.execute_step`, `AgentBaseMixin.get_clean_steps`):
 * the deploy interface sends them as `clean.execute_clean_step` / `deploy.execute_deploy_step` and the
 * flow waits for the result, which the heartbeat handling (heartbeat.ts) takes. The agent's clean steps
 * are those of IPA's generic hardware manager, at the conductor's priorities (`erase_devices_priority`,
 * `erase_devices_metadata_priority`, as Ironic's `[deploy]` overrides).
 */
import { AGENT_COMMANDS } from '../../protocol/agent/commands.js';
import { isoTime } from '../../shared/clock.js';
import type { DriverTask, FlowStep, StepFn } from '../interfaces/base.js';
import { nodeForAgent } from './node-for-agent.js';
import { setPendingCommand } from './pending-command.js';

/** The step command of `kind`, by the agent's full name and as its command list names it. */
const STEP_COMMANDS = {
  clean: { name: AGENT_COMMANDS.executeCleanStep, listed: 'execute_clean_step' },
  deploy: { name: AGENT_COMMANDS.executeDeployStep, listed: 'execute_deploy_step' },
} as const;

/** A step of `kind` that the agent runs: sent, recorded as the pending command and watched; the flow waits. */
export function inBandStep(kind: 'clean' | 'deploy'): StepFn {
  const { name, listed } = STEP_COMMANDS[kind];
  return async (task, _args, step) => {
    const agentStep = { interface: step.interface, step: step.step, priority: step.priority, args: step.args, reboot_requested: false, abortable: false };
    const sent = isoTime(task.clock.now());
    await task.agent.client.command(task.node, name, { step: agentStep, node: nodeForAgent(task.node), ports: [], [`${kind}_version`]: null }, { signal: task.signal });
    setPendingCommand(task, { command: listed, step: `${step.interface}.${step.step}`, started_at: sent });
    task.agent.watchCommand(task.node, listed);
    return 'wait';
  };
}

/** The agent's clean steps at the conductor's priorities. */
export function agentCleanSteps(task: Pick<DriverTask, 'config'>): Readonly<Record<string, FlowStep>> {
  const run = inBandStep('clean');
  return {
    erase_devices_metadata: { priority: task.config.erase_devices_metadata_priority, run },
    erase_devices: { priority: task.config.erase_devices_priority, run },
  };
}
