/**
 * Clean, deploy and service steps: `{interface, step, args, priority}` requests run in order (Ironic's
 * `conductor/steps.py`, `cleaning.py`, `deployments.py`). Each step is its interface's
 * (`task.driver[step.interface]`: one of its `flowSteps` for the kind of flow, or one of its `steps`); the
 * conductor runs it without knowing which driver it belongs to, and waits when it says `wait` — for the
 * ramdisk agent, whose heartbeats continue the flow (flows/agent-resume.ts). The reserved steps of Ironic
 * are understood: `hold` (the node waits in `* hold` until `unhold`), `wait` (sleeps `args.seconds`), and
 * `power_on` / `power_off` / `reboot`. The remaining steps and the position are kept in
 * driver_internal_info so a waiting or held flow can continue.
 */
import type { Json, JsonObject } from '../../domain/node.js';
import { INTERFACES } from '../../domain/node.js';
import type { StepKind } from '../../domain/states.js';
import type { RequestedStep } from '../../protocol/api/steps.js';
import type { Step } from '../../drivers/interfaces/base.js';
import { checkAborted } from '../../shared/abort.js';
import { sleep } from '../../shared/clock.js';
import { fail } from '../../shared/errors.js';
import { AgentBusyError } from '../../drivers/agent/client.js';
import type { Task } from '../task.js';

export type { Step, StepKind };

const RESERVED = new Set(['hold', 'wait', 'power_on', 'power_off', 'reboot']);

/**
 * The steps of a request as the conductor runs them: their shape was checked by the API against
 * `protocol/api/steps.ts` (the contract's `RequestedStep`); the defaults are filled in here.
 */
export function requestedSteps(steps: readonly RequestedStep[]): Step[] {
  return steps.map((s) => ({ interface: s.interface, step: s.step, args: s.args ?? {}, priority: s.priority ?? 0 }));
}

/** Checks that the node's driver offers every step (400 InvalidParameterValue otherwise). */
export function checkStepsAvailable(task: Task, kind: StepKind, steps: Step[]): void {
  for (const s of steps) {
    if (RESERVED.has(s.step)) continue;
    if (kind === 'deploy' && s.interface === 'deploy' && s.step === 'deploy') continue;
    if (task.driver[s.interface].flowSteps?.(task.driverTask(), kind)[s.step]) continue;
    const impl = task.driver[s.interface];
    if (!impl.steps?.[s.step]) {
      throw fail('stepNotSupported', { node: task.node.uuid, kind, step: `${s.interface}.${s.step}`, iface: s.interface, impl: impl.name });
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

/** Records a finished step and its duration in the node history. */
export async function recordStep(task: Task, kind: StepKind, step: string, durationMs: number): Promise<void> {
  await task.record(kind, `${kind} step ${step} done`, 'INFO', durationMs);
}

/** Runs one step; `wait` when the flow must wait (for the agent). */
async function runStep(task: Task, kind: StepKind, step: Step, signal: AbortSignal): Promise<'wait' | void> {
  const dt = task.driverTask(signal);
  if (step.step === 'wait') {
    const seconds = Number(step.args['seconds'] ?? 0);
    if (seconds > 0) await sleep(seconds * 1000, signal);
    return;
  }
  if (step.step === 'power_on' || step.step === 'power_off' || step.step === 'reboot') {
    const timeout = task.ctx.config.power_state_change_timeout_s;
    if (step.step === 'reboot') await task.driver.power.reboot(dt, false, timeout);
    else await task.driver.power.setPowerState(dt, step.step === 'power_on' ? 'power on' : 'power off', timeout);
    await task.setPower(step.step === 'power_off' ? 'power off' : 'power on');
    return;
  }
  const iface = task.driver[step.interface];
  const fn = iface.flowSteps?.(dt, kind)[step.step]?.run ?? iface.steps?.[step.step];
  if (!fn) throw fail('stepNotInDriver', { kind, step: `${step.interface}.${step.step}` });
  return (await fn(dt, step.args, step)) === 'wait' ? 'wait' : undefined;
}

/**
 * The default steps of a `kind` flow: the steps every interface of the node offers to it with a
 * priority above 0, highest first (in interface order for equal priorities).
 */
export function defaultSteps(task: Task, kind: StepKind): Step[] {
  const dt = task.driverTask();
  return INTERFACES.flatMap((name) =>
    Object.entries(task.driver[name].flowSteps?.(dt, kind) ?? {}).map(([step, s]): Step => ({ interface: name, step, args: s.args ?? {}, priority: s.priority })),
  )
    .filter((s) => s.priority > 0)
    .sort((a, b) => b.priority - a.priority);
}

/**
 * Runs the saved steps from the saved position. `held`: the node went to `* hold`; `waiting`: a step
 * waits for the agent (the node went to `* wait`; its heartbeats continue the flow). An agent busy with
 * an earlier command gets the step again at its next heartbeat.
 */
export async function runSteps(task: Task, kind: StepKind, signal: AbortSignal): Promise<StepsOutcome> {
  const { steps, index } = savedSteps(task, kind);
  for (let i = index; i < steps.length; i++) {
    checkAborted(signal);
    const step = steps[i] as Step;
    task.set({ [`${kind}_step`]: step as unknown as JsonObject, driver_internal_info: { ...task.node.driver_internal_info, [indexKey(kind)]: i + 1 } });
    await task.save();
    if (step.step === 'hold') {
      await task.process('hold');
      return 'held';
    }
    const started = task.ctx.clock.now();
    let result: 'wait' | void;
    try {
      result = await runStep(task, kind, step, signal);
    } catch (err) {
      if (!(err instanceof AgentBusyError)) throw err;
      task.set({ driver_internal_info: { ...task.node.driver_internal_info, [indexKey(kind)]: i } });
      result = 'wait';
    }
    if (result === 'wait') {
      await task.process('wait');
      return 'waiting';
    }
    await recordStep(task, kind, `${step.interface}.${step.step}`, task.ctx.clock.now() - started);
  }
  clearSteps(task, kind);
  await task.save();
  return 'done';
}
