/**
 * Resuming a flow on the agent's word (Ironic's `notify_conductor_resume_deploy` / `_clean` and the
 * conductor's `continue_node_deploy` / `continue_node_clean`): after a heartbeat of the node's agent, or
 * when the command watch saw the command a step sent end. The node's deploy interface says whether its
 * waiting flow goes on (`heartbeat.continues`, then `heartbeat.process` in a worker); the conductor then
 * records the finished step and continues the saved steps, whatever driver they belong to.
 */
import type { Node } from '../../domain/node.js';
import { pendingCommand } from '../../drivers/agent/pending-command.js';
import { messageOf } from '../../shared/errors.js';
import type { ConductorContext } from '../context.js';
import { Task } from '../task.js';
import { continueSteps, provisionFailureHandlers } from './phases.js';
import { startFlow } from './run.js';
import { recordStep } from './steps.js';

/**
 * Hands the task to a worker that continues the node's waiting flow, when its deploy interface says a
 * heartbeat continues one; returns whether it did (the worker then releases the task). With every
 * worker busy the heartbeat only counts as a sign of life: the agent heartbeats again.
 */
export function resumeOnHeartbeat(task: Task): boolean {
  const heartbeat = task.driver.deploy.heartbeat;
  const kind = heartbeat?.continues(task.driverTask()) ?? null;
  if (!heartbeat || !kind) return false;
  const name = `heartbeat ${task.node.uuid}`;
  let slot;
  try {
    slot = task.ctx.pool.reserve(name);
  } catch (err) {
    task.ctx.logger.warn({ node: task.node.uuid }, `heartbeat of node ${task.node.uuid} not acted on: ${messageOf(err)}`);
    return false;
  }
  startFlow(task, slot, name, provisionFailureHandlers(task, async (signal) => {
    const outcome = await heartbeat.process(task.driverTask(signal), kind);
    if (!outcome.resume) return;
    if (outcome.finished) await recordStep(task, kind, outcome.finished.step, outcome.finished.durationMs);
    await continueSteps(task, kind, signal);
  }));
  return true;
}

/**
 * When, after a command is sent, the watch looks at it (ms between looks): ~3 s in all. Short commands
 * (erase_devices_metadata takes a second, writing a small image a few) are then taken at once instead of
 * at the agent's next heartbeat, which comes at least 5 s after the previous one.
 */
const COMMAND_WATCH_MS = [100, 200, 400, 800, 1500];

/** The longest one look of the watch may take: an agent that does not answer is the heartbeats' business. */
const COMMAND_WATCH_LOOK_TIMEOUT_MS = 5000;

/**
 * Watches the command a step just sent while its flow waits for the agent (the conductor's side of
 * `AgentServices.watchCommand`): looks at it a few times ({@link COMMAND_WATCH_MS}) holding nothing, and
 * once it has finished continues the flow as the agent's heartbeat would. A busy node (the flow still
 * saving, a heartbeat being taken) is looked at again; a conductor that stops meanwhile leaves the node
 * waiting for the heartbeat, as without the watch.
 */
export function watchAgentCommand(ctx: ConductorContext, node: Readonly<Node>, command: string): void {
  const watch = async (): Promise<void> => {
    for (const delay of COMMAND_WATCH_MS) {
      await new Promise((resolve) => setTimeout(resolve, delay).unref());
      // Not while a flow works on the node (the one that sent the command may still be saving it, a
      // heartbeat's may be powering the machine off); once unlocked, a command already taken ends the watch.
      const now = await ctx.store.nodes.get(node.uuid);
      if (now.reservation !== null) continue;
      if (pendingCommand(now)?.command !== command) return;
      const result = await ctx.agent.client.lastCommand(node, command, AbortSignal.timeout(COMMAND_WATCH_LOOK_TIMEOUT_MS)).catch(() => null);
      if (!result || result.command_status === 'RUNNING') continue;
      const task = await Task.acquire(ctx, node.uuid).catch(() => null);
      if (!task) continue;
      let handedOver = false;
      try {
        // Another step's command, or a heartbeat took this one already.
        if (pendingCommand(task.node)?.command !== command) return;
        handedOver = resumeOnHeartbeat(task);
        return;
      } finally {
        if (!handedOver) await task.release();
      }
    }
  };
  watch().catch((err: unknown) => ctx.logger.debug({ node: node.uuid }, `watching the agent's ${command}: ${messageOf(err)}`));
}
