/** The `deploy` extension (IPA `extensions/deploy.py`): list and run deploy steps (`write_image`). */
import type { AgentStep, ExecuteDeployStepResult, GetDeployStepsResult, PrepareImageParams } from '../../protocol/agent/commands.js';
import { messageOf } from '../../shared/errors.js';
import type { CommandRegistry } from '../api/command-registry.js';
import { AgentRestError, deploymentError, invalidCommandParams, versionMismatch } from '../api/errors.js';
import { validateImageInfo } from '../disk/image-checksum.js';
import type { ExtensionContext } from './context.js';
import { prepareImage, type StandbyState } from './standby.js';
import { MANAGER_VERSIONS, STEP_MANAGER, deploySteps, eraseDevicesMetadata, versionsMatch } from './steps.js';

/** Registers `deploy.get_deploy_steps` (sync) and `deploy.execute_deploy_step` (async). */
export function registerDeploy(registry: CommandRegistry, ctx: ExtensionContext, standby: StandbyState): void {
  registry.register('deploy', 'get_deploy_steps', {
    async: false,
    run: (p): GetDeployStepsResult => {
      if (p.node && typeof p.node === 'object') ctx.setNode(p.node as Record<string, unknown>);
      return { deploy_steps: { [STEP_MANAGER]: deploySteps() }, hardware_manager_version: MANAGER_VERSIONS };
    },
  });
  registry.register('deploy', 'execute_deploy_step', {
    async: true,
    validate: (p) => {
      if (!p.step || typeof p.step !== 'object') throw invalidCommandParams('deployStepNotDict');
    },
    run: async (p): Promise<ExecuteDeployStepResult> => {
      if (!versionsMatch(p.deploy_version)) throw versionMismatch('deploy', MANAGER_VERSIONS, p.deploy_version);
      const step = p.step as AgentStep;
      if (typeof step.step !== 'string') throw deploymentError('deployStepNameMissing', { step: JSON.stringify(step) });
      if (p.node && typeof p.node === 'object') ctx.setNode(p.node as Record<string, unknown>);
      // Step arguments come from the command's extra params and the step's `args` (the latter win).
      const { step: _s, node: _n, ports: _p, deploy_version: _v, ...extra } = p;
      const args = { ...extra, ...(step.args ?? {}) };
      let result: unknown = null;
      try {
        if (step.step === 'write_image') {
          validateImageInfo(args.image_info);
          const message = await prepareImage(ctx, standby, args as unknown as PrepareImageParams);
          result = { result: `prepare_image: ${message}` };
        } else if (step.step === 'erase_devices_metadata') await eraseDevicesMetadata(ctx);
        else throw new Error(`this agent has no deploy step "${step.step}"`);
      } catch (err) {
        if (err instanceof AgentRestError) throw err;
        throw deploymentError('deployStepFailed', { step: step.step, reason: messageOf(err) });
      }
      ctx.log(`Deploy step completed: ${step.step}`);
      return { deploy_result: result, deploy_step: step };
    },
  });
}
