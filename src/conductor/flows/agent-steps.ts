/**
 * The steps of agent-driven deployment and cleaning. The deploy steps after `deploy` are the conductor's
 * (Ironic's `AgentDeploy`): `write_image` sends `standby.prepare_image` and waits for the agent,
 * `prepare_instance_boot` removes the ramdisk boot and sets up the instance's (boot device disk for a
 * local boot), `tear_down_agent` powers the machine off, `switch_to_tenant_network` and `boot_instance`
 * power it on into the deployed OS. Any other step of the deploy interface is the agent's: it is sent as
 * `clean.execute_clean_step` / `deploy.execute_deploy_step` and the flow waits for its result.
 */
import type { JsonObject } from '../../domain/node.js';
import type { DefaultStep } from '../../drivers/interfaces/deploy.js';
import { AGENT_COMMANDS } from '../../protocol/agent/commands.js';
import { isoTime } from '../../shared/clock.js';
import { watchAgentCommand } from '../agent-callbacks.js';
import { agentImageFor } from '../agent-image.js';
import type { Task } from '../task.js';
import { endAgentRamdisk, setPendingCommand } from './agent-boot.js';
import { powerOffUnlessDisabled, powerOnOrReboot } from './power.js';
import type { Step, StepKind } from './steps.js';

type ConductorStep = (task: Task, signal: AbortSignal) => Promise<'wait' | void>;

/** The node as a step command carries it (Ironic `node.as_dict(secure=True)`, minus the token and config drive). */
export function nodeForAgent(task: Task): JsonObject {
  const n = task.node;
  const { agent_secret_token: _t, ...internal } = n.driver_internal_info;
  const { configdrive: _c, ...instance } = n.instance_info;
  return { uuid: n.uuid, name: n.name, properties: n.properties, instance_info: instance, driver_internal_info: internal };
}

async function writeImage(task: Task, signal: AbortSignal): Promise<'wait'> {
  const image = await agentImageFor(task.ctx, task.node, signal);
  await task.record('deploy', `image ${image.image_info.urls[0]} handed to the agent${image.served ? ' (served by Ingot)' : ''}${image.configdrive ? ' with a config drive' : ''}`, 'INFO', null);
  const sent = isoTime(task.ctx.clock.now());
  await task.ctx.agent.command(task.node, AGENT_COMMANDS.prepareImage, { image_info: image.image_info, configdrive: image.configdrive }, { signal });
  setPendingCommand(task, { command: 'prepare_image', step: 'deploy.write_image', started_at: sent });
  watchAgentCommand(task.ctx, task.node, 'prepare_image');
  return 'wait';
}

const CONDUCTOR_DEPLOY_STEPS: Readonly<Record<string, ConductorStep>> = {
  write_image: writeImage,
  async prepare_instance_boot(task, signal) {
    await endAgentRamdisk(task, signal);
    await task.driver.boot.prepareInstance(task.driverTask(signal));
  },
  async tear_down_agent(task, signal) {
    await powerOffUnlessDisabled(task, signal, 'to end the deploy ramdisk');
  },
  async switch_to_tenant_network(task, signal) {
    await task.driver.network.configureTenantNetworks(task.driverTask(signal));
  },
  async boot_instance(task, signal) {
    await powerOnOrReboot(task, signal);
  },
};

/** The agent's steps of `kind` declared by the node's deploy interface (null: the interface is not agent-driven for `kind`). */
export function agentStepsOf(task: Task, kind: StepKind): readonly DefaultStep[] | null {
  const deploy = task.driver.deploy;
  if (kind === 'deploy') return deploy.waitsForAgent ? (deploy.deploySteps ?? []) : null;
  if (kind === 'clean') return deploy.cleansWithAgent ? (deploy.cleanSteps ?? []) : null;
  return null;
}

/** True when `step` is run by the conductor-with-agent machinery for this node. */
export function isAgentStep(task: Task, kind: StepKind, step: Pick<Step, 'interface' | 'step'>): boolean {
  if (step.interface !== 'deploy') return false;
  return agentStepsOf(task, kind)?.some((s) => s.step === step.step) ?? false;
}

/**
 * The default steps of an agent-driven `kind`, with the conductor's priority overrides for the erase
 * steps; only those with a priority above 0, highest first.
 */
export function defaultAgentSteps(task: Task, kind: StepKind): Step[] {
  const declared = agentStepsOf(task, kind) ?? [];
  const cfg = task.ctx.config;
  const override: Record<string, number> = kind === 'clean' ? { erase_devices: cfg.erase_devices_priority, erase_devices_metadata: cfg.erase_devices_metadata_priority } : {};
  return declared
    .map((s): Step => ({ interface: 'deploy', step: s.step, args: s.args ?? {}, priority: override[s.step] ?? s.priority }))
    .filter((s) => s.priority > 0)
    .sort((a, b) => b.priority - a.priority);
}

/** Runs an agent-driven step; `wait` when the flow must wait for the agent's result. */
export async function runAgentStep(task: Task, kind: StepKind, step: Step, signal: AbortSignal): Promise<'wait' | void> {
  const own = kind === 'deploy' ? CONDUCTOR_DEPLOY_STEPS[step.step] : undefined;
  if (own) return own(task, signal);
  const command = kind === 'clean' ? 'execute_clean_step' : 'execute_deploy_step';
  const name = kind === 'clean' ? AGENT_COMMANDS.executeCleanStep : AGENT_COMMANDS.executeDeployStep;
  const agentStep = { interface: step.interface, step: step.step, priority: step.priority, args: step.args, reboot_requested: false, abortable: false };
  const sent = isoTime(task.ctx.clock.now());
  await task.ctx.agent.command(task.node, name, { step: agentStep, node: nodeForAgent(task), ports: [], [`${kind}_version`]: null }, { signal });
  setPendingCommand(task, { command, step: `${step.interface}.${step.step}`, started_at: sent });
  watchAgentCommand(task.ctx, task.node, command);
  return 'wait';
}
