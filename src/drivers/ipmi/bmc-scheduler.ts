/**
 * Ironic's IPMI timing, per BMC (`address:port`): commands to one BMC run one at a time, at least
 * `min_command_interval_s` apart, and a command failing with a retryable error is retried with backoff
 * until `command_retry_timeout_s` after it started (ironic/drivers/modules/ipmitool.py `_exec_ipmitool`).
 */
import { retry, systemRetryClock, type Backoff, type RetryClock } from '../../shared/retry.js';
import type { RetryObserver } from '../retry-log.js';
import { IpmiError } from './errors.js';
import type { IpmiSettings } from './settings.js';

/** The time source of the scheduler; tests pass a virtual one. */
export type SchedulerTime = RetryClock;

/** Real time. */
export const realTime: SchedulerTime = systemRetryClock;

/** What one attempt of a command knows about its window. */
export interface AttemptContext {
  /** Epoch ms when the retry window closes: transports stop retransmitting here. */
  deadline: number;
  /** 1 for the first attempt. */
  attempt: number;
}

interface BmcLane {
  tail: Promise<unknown>;
  /** Epoch ms when the last command to this BMC ended. */
  lastEnd: number;
}

/** Ironic's: 1 s after the first failure, doubling up to 8 s. */
const BACKOFF: Backoff = { initialMs: 1000, maxMs: 8000 };

/** Serialises, spaces and retries the commands to each BMC. */
export class BmcScheduler {
  private readonly lanes = new Map<string, BmcLane>();

  constructor(
    private readonly settings: Pick<IpmiSettings, 'command_retry_timeout_s' | 'min_command_interval_s'>,
    private readonly time: SchedulerTime = realTime,
    private readonly onRetry: RetryObserver = () => undefined,
  ) {}

  /**
   * Runs `attempt` for the BMC `key` once every command queued before it has ended and the minimum
   * interval has passed; retries it while it throws a retryable {@link IpmiError} and the window is open.
   * Rejects with the signal's reason when `signal` aborts (the queue goes on with the next command).
   */
  run<T>(key: string, signal: AbortSignal, attempt: (ctx: AttemptContext) => Promise<T>, operation = 'command'): Promise<T> {
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { tail: Promise.resolve(), lastEnd: 0 };
      this.lanes.set(key, lane);
    }
    const l = lane;
    const result = l.tail.then(() => this.runTurn(key, operation, l, signal, attempt));
    l.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  private async runTurn<T>(key: string, operation: string, lane: BmcLane, signal: AbortSignal, attempt: (ctx: AttemptContext) => Promise<T>): Promise<T> {
    signal.throwIfAborted();
    const intervalMs = this.settings.min_command_interval_s * 1000;
    const deadline = this.time.now() + this.settings.command_retry_timeout_s * 1000;
    return retry(async (n) => {
      const wait = lane.lastEnd + intervalMs - this.time.now();
      if (wait > 0) await this.time.sleep(wait, signal);
      try {
        return await attempt({ deadline, attempt: n });
      } finally {
        lane.lastEnd = this.time.now();
      }
    }, {
      backoff: BACKOFF,
      deadline,
      retryable: (err) => err instanceof IpmiError && err.retryable,
      onRetry: (n, err, delayMs) => this.onRetry({ bmc: key, operation, attempt: n, reason: (err as IpmiError).message, delayMs }),
      signal,
      clock: this.time,
    });
  }
}
