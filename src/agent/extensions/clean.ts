/** The `clean` extension (IPA `extensions/clean.py`): list and run clean steps. */
import type { AgentStep, ExecuteCleanStepResult, GetCleanStepsResult } from '../../protocol/agent/commands.js';
import { messageOf } from '../../shared/errors.js';
import { CleanVersionMismatch, type CommandRegistry } from '../api/command-registry.js';
import { cleaningError, invalidCommandParams, versionMismatch } from '../api/errors.js';
import type { ExtensionContext } from './context.js';
import { MANAGER_VERSIONS, STEP_MANAGER, cleanSteps, eraseDevices, eraseDevicesMetadata, versionsMatch } from './steps.js';

/** Registers `clean.get_clean_steps` (sync) and `clean.execute_clean_step` (async). */
export function registerClean(registry: CommandRegistry, ctx: ExtensionContext): void {
  registry.register('clean', 'get_clean_steps', {
    async: false,
    run: (p): GetCleanStepsResult => {
      if (p.node && typeof p.node === 'object') ctx.setNode(p.node as Record<string, unknown>);
      return { clean_steps: { [STEP_MANAGER]: cleanSteps() }, hardware_manager_version: MANAGER_VERSIONS };
    },
  });
  registry.register('clean', 'execute_clean_step', {
    async: true,
    validate: (p) => {
      if (!p.step || typeof p.step !== 'object') throw invalidCommandParams('cleanStepNotDict');
    },
    run: async (p): Promise<ExecuteCleanStepResult> => {
      if (!versionsMatch(p.clean_version)) throw new CleanVersionMismatch(versionMismatch('clean', MANAGER_VERSIONS, p.clean_version));
      const step = p.step as AgentStep;
      if (typeof step.step !== 'string') throw cleaningError('cleanStepNameMissing', { step: JSON.stringify(step) });
      if (p.node && typeof p.node === 'object') ctx.setNode(p.node as Record<string, unknown>);
      try {
        if (step.step === 'erase_devices_metadata') await eraseDevicesMetadata(ctx);
        else if (step.step === 'erase_devices') await eraseDevices(ctx);
        else throw new Error(`this agent has no clean step "${step.step}"`);
      } catch (err) {
        throw cleaningError('cleanStepFailed', { step: step.step, reason: messageOf(err) });
      }
      ctx.log(`Clean step completed: ${step.step}`);
      return { clean_result: null, clean_step: step };
    },
  });
}
