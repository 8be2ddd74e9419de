/**
 * Clean, deploy and service steps: `{interface, step, args, priority}` requests run in order. The
 * reserved steps of Ironic are understood: `hold` (the node waits in `* hold` until `unhold`), `wait`
 * (sleeps `args.seconds`), and `power_on` / `power_off` / `reboot`. The remaining steps and the position
 * are kept in driver_internal_info so a held flow can continue after `unhold`.
 */
import type { Json, JsonObject } from '../../domain/node.js';
import { INTERFACES, type InterfaceName } from '../../domain/node.js';
import { sleep } from '../../shared/clock.js';
import { fail } from '../../shared/errors.js';
import type { Task } from '../task.js';
import { checkAborted } from './run.js';

export type StepKind = 'clean' | 'deploy' | 'service';

export interface Step {
  interface: InterfaceName;
  step: string;
  args: JsonObject;
  priority: number;
}

const RESERVED = new Set(['hold', 'wait', 'power_on', 'power_off', 'reboot']);

function isObject(v: Json | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Parses user steps, throwing InvalidParameterValue naming the bad one. */
export function parseSteps(kind: StepKind, raw: unknown): Step[] {
  if (!Array.isArray(raw)) throw fail('InvalidParameterValue', `"${kind}_steps" must be a list of steps.`);
  return raw.map((s: Json, i): Step => {
    if (!isObject(s)) throw fail('InvalidParameterValue', `${kind} step ${i} must be an object with "interface" and "step".`);
    const iface = s['interface'];
    const name = s['step'];
    if (typeof iface !== 'string' || !(INTERFACES as readonly string[]).includes(iface)) {
      throw fail('InvalidParameterValue', `${kind} step ${i}: "interface" must be one of ${INTERFACES.join(', ')}, got ${JSON.stringify(iface ?? null)}.`);
    }
    if (typeof name !== 'string' || name === '') throw fail('InvalidParameterValue', `${kind} step ${i}: "step" must be a non-empty string.`);
    const args = s['args'] ?? {};
    if (!isObject(args)) throw fail('InvalidParameterValue', `${kind} step ${i}: "args" must be an object.`);
    const priority = s['priority'] ?? 0;
    if (typeof priority !== 'number' || !Number.isInteger(priority) || priority < 0) {
      throw fail('InvalidParameterValue', `${kind} step ${i}: "priority" must be a non-negative integer.`);
    }
    return { interface: iface as InterfaceName, step: name, args, priority };
  });
}

/** Checks that the node's driver offers every step (400 InvalidParameterValue otherwise). */
export function checkStepsAvailable(task: Task, kind: StepKind, steps: Step[]): void {
  for (const s of steps) {
    if (RESERVED.has(s.step)) continue;
    if (kind === 'deploy' && s.interface === 'deploy' && s.step === 'deploy') continue;
    const impl = task.driver[s.interface];
    if (!impl.steps?.[s.step]) {
      throw fail('InvalidParameterValue', `Node ${task.node.uuid}: ${kind} step "${s.interface}.${s.step}" is not supported by the ${s.interface} interface "${impl.name}".`);
    }
  }
}

function stepsKey(kind: StepKind) {
  return `${kind}_steps_pending`;
}
function indexKey(kind: StepKind) {
  return `${kind}_step_index`;
}

/** Stores the steps of a flow about to start. */
export function storeSteps(task: Task, kind: StepKind, steps: Step[]): void {
  task.set({ driver_internal_info: { ...task.node.driver_internal_info, [stepsKey(kind)]: steps as unknown as Json, [indexKey(kind)]: 0 } });
}

/** Steps and position saved by `storeSteps` / a hold. */
export function savedSteps(task: Task, kind: StepKind): { steps: Step[]; index: number } {
  const info = task.node.driver_internal_info;
  const steps = Array.isArray(info[stepsKey(kind)]) ? (info[stepsKey(kind)] as unknown as Step[]) : [];
  const index = typeof info[indexKey(kind)] === 'number' ? (info[indexKey(kind)] as number) : 0;
  return { steps, index };
}

function clearSteps(task: Task, kind: StepKind): void {
  const info = { ...task.node.driver_internal_info };
  delete info[stepsKey(kind)];
  delete info[indexKey(kind)];
  task.set({ driver_internal_info: info, [`${kind}_step`]: {} });
}

export type StepsOutcome = 'done' | 'held' | 'waiting';

/**
 * Runs the saved steps from the saved position. `held`: the node went to `* hold`; `waiting`: a step
 * returned `wait` (an agent continues later). `target` keeps target_provision_state (manual cleaning).
 */
export async function runSteps(task: Task, kind: StepKind, signal: AbortSignal): Promise<StepsOutcome> {
  const { steps, index } = savedSteps(task, kind);
  const dt = task.driverTask(signal);
  for (let i = index; i < steps.length; i++) {
    checkAborted(signal);
    const step = steps[i] as Step;
    task.set({ [`${kind}_step`]: step as unknown as JsonObject, driver_internal_info: { ...task.node.driver_internal_info, [indexKey(kind)]: i + 1 } });
    await task.save();
    if (step.step === 'hold') {
      await task.process('hold');
      return 'held';
    }
    if (step.step === 'wait') {
      const seconds = Number(step.args['seconds'] ?? 0);
      if (seconds > 0) await sleep(seconds * 1000, signal);
    } else if (step.step === 'power_on' || step.step === 'power_off' || step.step === 'reboot') {
      const timeout = task.ctx.config.power_state_change_timeout_s;
      if (step.step === 'reboot') await task.driver.power.reboot(dt, false, timeout);
      else await task.driver.power.setPowerState(dt, step.step === 'power_on' ? 'power on' : 'power off', timeout);
      await task.setPower(step.step === 'power_off' ? 'power off' : 'power on');
    } else if (kind === 'deploy' && step.interface === 'deploy' && step.step === 'deploy') {
      if ((await task.driver.deploy.deploy(dt)) === 'wait') {
        await task.process('wait');
        return 'waiting';
      }
    } else {
      const fn = task.driver[step.interface].steps?.[step.step];
      if (!fn) throw fail('InvalidParameterValue', `${kind} step "${step.interface}.${step.step}" is not supported by the node's driver.`);
      await fn(dt, step.args);
    }
  }
  clearSteps(task, kind);
  await task.save();
  return 'done';
}
