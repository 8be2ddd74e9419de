/**
 * Asynchronous operations (DSP0266 §12.2 "Asynchronous operations"): an action answered with
 * 202 Accepted and a `Location` to a task monitor, which answers 202 while the task runs and the
 * finished Task (200) afterwards. The emulator's monitor URI is the Task's own URI, as several BMCs do.
 */
import { randomUUID } from 'node:crypto';
import { sleep, type Clock } from '../../shared/clock.js';
import type { Principal } from './auth.js';
import { baseMessage, type RedfishMessage } from './errors.js';
import { odata, V1 } from './odata.js';

export type TaskState = 'Running' | 'Completed' | 'Exception';

export interface RedfishTask {
  id: string;
  name: string;
  principal: Principal;
  state: TaskState;
  startedAt: number;
  endedAt: number | null;
  messages: RedfishMessage[];
}

/** Completed tasks kept for their monitors; the oldest go first (`CompletedTaskOverWritePolicy: Oldest`). */
const KEEP_FINISHED = 500;

export class TaskStore {
  private readonly tasks = new Map<string, RedfishTask>();

  constructor(
    private readonly clock: Clock,
    /** How long a task runs at least, so that clients see it running. */
    private readonly minDurationMs: number,
    /** Aborted when the emulator closes: running tasks end at once. */
    private readonly signal: AbortSignal,
  ) {}

  /** Starts `work` as a task of `principal`; `work`'s failure makes the task end in `Exception`. */
  start(principal: Principal, name: string, work: () => Promise<void>): RedfishTask {
    this.prune();
    const task: RedfishTask = { id: randomUUID().replace(/-/g, '').slice(0, 12), name, principal, state: 'Running', startedAt: this.clock.now(), endedAt: null, messages: [] };
    this.tasks.set(task.id, task);
    const finish = (state: TaskState, message: RedfishMessage) => {
      task.state = state;
      task.endedAt = this.clock.now();
      task.messages.push(message);
    };
    Promise.all([work(), sleep(this.minDurationMs, this.signal)]).then(
      () => finish('Completed', baseMessage('Success', 'The request completed successfully.', [], [], 'OK')),
      (err: unknown) => finish('Exception', baseMessage('InternalError', `The task failed: ${err instanceof Error ? err.message : String(err)}`)),
    );
    return task;
  }

  get(id: string): RedfishTask | undefined {
    return this.tasks.get(id);
  }

  list(): RedfishTask[] {
    return [...this.tasks.values()];
  }

  private prune(): void {
    const finished = [...this.tasks.values()].filter((t) => t.state !== 'Running');
    for (const t of finished.slice(0, Math.max(0, finished.length - KEEP_FINISHED))) this.tasks.delete(t.id);
  }
}

/** The URI of task `id` (also its task monitor). */
export function taskUri(id: string): string {
  return `${V1}/TaskService/Tasks/${id}`;
}

/** A Task resource (Task.v1_4_3). */
export function renderTask(task: RedfishTask): Record<string, unknown> {
  const uri = taskUri(task.id);
  return {
    ...odata(uri, '#Task.v1_4_3.Task'),
    Id: task.id,
    Name: task.name,
    TaskState: task.state,
    TaskStatus: task.state === 'Exception' ? 'Critical' : 'OK',
    StartTime: new Date(task.startedAt).toISOString(),
    ...(task.endedAt === null ? {} : { EndTime: new Date(task.endedAt).toISOString() }),
    PercentComplete: task.state === 'Running' ? 0 : 100,
    TaskMonitor: uri,
    HidePayload: true,
    Messages: task.messages,
  };
}
