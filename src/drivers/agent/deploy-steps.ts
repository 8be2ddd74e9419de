/**
 * The deploy steps of `direct` (Ironic's `AgentDeploy` and `AgentOobStepsMixin`), each acting on the
 * task through the node's own interfaces and its agent, at Ironic's priorities:
 *
 * - `deploy` (100) boots the agent ramdisk and waits for the agent to come up — or, with fast track, the
 *   agent still running from cleaning takes the next step at once;
 * - `write_image` (80) sends `standby.prepare_image` and waits for the agent;
 * - `prepare_instance_boot` (60) removes the ramdisk boot and sets up the instance's (boot device disk
 *   for a local boot);
 * - `tear_down_agent` (40) powers the machine off (not with disable_power_off);
 * - `switch_to_tenant_network` (30) and `boot_instance` (20) power it on into the deployed OS.
 */
import type { Json } from '../../domain/node.js';
import { AGENT_COMMANDS, type AgentCommandResult } from '../../protocol/agent/commands.js';
import { isoTime } from '../../shared/clock.js';
import type { DriverTask, FlowStep } from '../interfaces/base.js';
import type { AsyncResult } from '../interfaces/deploy.js';
import { powerOffUnlessDisabled, powerOnOrReboot } from '../power-actions.js';
import { useRunningAgent } from './fast-track.js';
import { collectAgentLogs } from './logs.js';
import { setPendingCommand } from './pending-command.js';
import { bootAgentRamdisk, endAgentRamdisk } from './ramdisk.js';

/** The core deploy step: the agent ramdisk boots (or the running agent is used); the agent's first heartbeat ends the step. */
export async function deployWithAgent(task: DriverTask): Promise<AsyncResult> {
  if (await useRunningAgent(task, 'deploy')) return 'done';
  await bootAgentRamdisk(task, 'deploy');
  setPendingCommand(task, { command: null, step: 'deploy.deploy', started_at: isoTime(task.clock.now()) });
  return 'wait';
}

async function writeImage(task: DriverTask): Promise<'wait'> {
  const image = await task.agent.image(task.node, task.signal);
  // NOTE: the URL of a served image is the agent's alone (its path is the secret): the history names the source.
  const shown = image.served ? `${String(task.node.instance_info.image_source)} (served by Ingot)` : image.image_info.urls[0];
  await task.record('deploy', `image ${shown} handed to the agent${image.configdrive ? ' with a config drive' : ''}`, 'INFO', null);
  const sent = isoTime(task.clock.now());
  await task.agent.client.command(task.node, AGENT_COMMANDS.prepareImage, { image_info: image.image_info, configdrive: image.configdrive }, { signal: task.signal });
  setPendingCommand(task, { command: 'prepare_image', step: 'deploy.write_image', started_at: sent });
  task.agent.watchCommand(task.node, 'prepare_image');
  return 'wait';
}

/** `root_uuid=<id>` of IPA's prepare_image message. */
function rootUuidOf(result: unknown): string | null {
  const m = typeof result === 'string' ? /root_uuid=(\S+)/.exec(result) : null;
  return m ? (m[1] as string) : null;
}

/** After `prepare_image` succeeded: what the agent wrote (a whole-disk image, its root), its message and, if asked for, its logs. */
export async function imageWritten(task: DriverTask, result: AgentCommandResult): Promise<void> {
  const root = rootUuidOf(result.command_result);
  const info: Record<string, Json> = { ...task.node.driver_internal_info, is_whole_disk_image: true };
  if (root) info.root_uuid_or_disk_id = root;
  task.update({ driver_internal_info: info });
  await task.record('deploy', `agent: ${typeof result.command_result === 'string' ? result.command_result : 'image written'}`, 'INFO', null);
  await collectAgentLogs(task, 'success');
}

/** The deploy steps of `direct` (see the module doc). */
export const DIRECT_DEPLOY_STEPS: Readonly<Record<string, FlowStep>> = {
  deploy: { priority: 100, run: deployWithAgent },
  write_image: { priority: 80, run: writeImage },
  prepare_instance_boot: {
    priority: 60,
    async run(task) {
      await endAgentRamdisk(task);
      await task.driver.boot.prepareInstance(task);
    },
  },
  tear_down_agent: {
    priority: 40,
    async run(task) {
      await powerOffUnlessDisabled(task, 'to end the deploy ramdisk');
    },
  },
  switch_to_tenant_network: { priority: 30, run: (task) => task.driver.network.configureTenantNetworks(task) },
  boot_instance: { priority: 20, run: (task) => powerOnOrReboot(task) },
};
