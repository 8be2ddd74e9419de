import type { StepKind } from '../../domain/states.js';
import type { DriverInterface, DriverTask, Step } from './base.js';

/** Result of a long operation: finished now, or waiting for the ramdisk agent to call back. */
export type AsyncResult = 'done' | 'wait';

/** What a heartbeat did to the flow waiting for the agent. */
export type HeartbeatOutcome =
  /** The command the current step sent still runs: the flow keeps waiting. */
  | { readonly resume: false }
  /**
   * The flow goes on with its next step: the command finished (`finished` names the step that sent it
   * and how long it took, for the history), or no step was waiting (the agent just came up).
   */
  | { readonly resume: true; readonly finished?: { readonly step: string; readonly durationMs: number } };

/**
 * The heartbeat handling of a deploy interface whose flows the ramdisk agent carries (Ironic's
 * `HeartbeatMixin`). The conductor checks the agent's token and records its URL, version and time; then
 * it asks {@link continues} and, when a flow is waiting, hands the heartbeat to {@link process} in a
 * worker and resumes the saved steps when told to.
 */
export interface HeartbeatHandling {
  /**
   * The kind of the flow a heartbeat of the node's agent continues now (the node waits in the state of
   * a flow this interface runs with the agent, and is not in maintenance), or null. Synchronous and free
   * of I/O: it is asked while the heartbeat is answered, and after `unhold`.
   */
  continues(task: DriverTask): StepKind | null;
  /**
   * Looks at the command the waiting step sent (Ironic's `process_next_step`): still running, the flow
   * keeps waiting; finished, it resumes. Throws when the command failed, with the agent's own error: the
   * flow fails with it. Runs in a worker holding the node lock.
   */
  process(task: DriverTask, kind: StepKind): Promise<HeartbeatOutcome>;
}

/** Writes the instance to the machine and removes it again (Ironic's `DeployInterface`). */
export interface DeployInterface extends DriverInterface {
  prepare(task: DriverTask): Promise<void>;
  /** The core deploy step (`deploy.deploy`, priority 100); `wait`: the flow waits for the agent. */
  deploy(task: DriverTask): Promise<AsyncResult>;
  /**
   * Ends a deployment once every deploy step ran, leaving the instance running: the boot configuration,
   * the tenant networks and the power-on — unless the interface's own steps did that (`direct`).
   */
  finishDeploy(task: DriverTask): Promise<void>;
  tearDown(task: DriverTask): Promise<void>;
  cleanUp(task: DriverTask): Promise<void>;
  /** Adopts an already deployed machine (adopt) or takes it over from another conductor. */
  takeOver(task: DriverTask): Promise<void>;
  /**
   * Readies the machine for the clean `steps` about to run (e.g. boots the agent ramdisk when one of
   * them runs on the agent); `wait`: the flow waits for the agent, whose heartbeats run the steps.
   */
  prepareCleaning(task: DriverTask, steps: readonly Pick<Step, 'interface' | 'step'>[]): Promise<AsyncResult>;
  /** Ends cleaning (e.g. the clean ramdisk and the power-off). */
  tearDownCleaning(task: DriverTask): Promise<void>;
  /** Present when the ramdisk agent carries this interface's flows (see {@link HeartbeatHandling}). */
  readonly heartbeat?: HeartbeatHandling;
}

declare module './base.js' {
  interface InterfaceContracts {
    deploy: DeployInterface;
  }
}
