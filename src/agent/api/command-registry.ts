/**
 * The agent's commands and their results (IPA `extensions/base.py` `ExecuteCommandMixin`). A command is
 * `<extension>.<name>`; synchronous ones finish before the answer, asynchronous ones answer `RUNNING`
 * and finish in the background. While the last command still runs, a new one is refused with
 * AgentIsBusy (409). Results are kept in order for `GET /v1/commands/`.
 */
import { randomUUID } from 'node:crypto';
import type { AgentCommandResult, AgentCommandStatus } from '../../protocol/agent/commands.js';
import { type AgentRestError, agentIsBusy, invalidCommand, notFound, toAgentError } from './errors.js';

/** Command parameters as posted (`params`). */
export type CommandParams = Record<string, unknown>;

/** One command an extension offers. */
export interface CommandSpec {
  /** Runs in the background; the answer says RUNNING. */
  async: boolean;
  /**
   * Checks the parameters before anything runs; a throw is answered with its HTTP code (400) and no
   * result is recorded, as IPA's validators do.
   */
  validate?: (params: CommandParams) => void;
  run: (params: CommandParams) => unknown;
}

/** A recorded command. */
export interface CommandRecord {
  readonly id: string;
  /** Resolves when the command is no longer RUNNING. */
  readonly finished: Promise<void>;
  view(): AgentCommandResult;
  isDone(): boolean;
}

/** Thrown by a command to finish with status CLEAN_VERSION_MISMATCH instead of FAILED. */
export class CleanVersionMismatch extends Error {
  constructor(readonly error: AgentRestError) {
    super(error.message);
  }
}

class Record_ implements CommandRecord {
  readonly id = randomUUID();
  status: AgentCommandStatus = 'RUNNING';
  error: AgentRestError | null = null;
  result: unknown = null;
  finished: Promise<void>;
  private resolveFinished!: () => void;

  constructor(public name: string) {
    this.finished = new Promise((resolve) => (this.resolveFinished = resolve));
  }

  succeed(result: unknown): void {
    this.result = result ?? null;
    this.status = 'SUCCEEDED';
    this.resolveFinished();
  }

  fail(err: unknown): void {
    if (err instanceof CleanVersionMismatch) {
      this.error = err.error;
      this.status = 'CLEAN_VERSION_MISMATCH';
    } else {
      this.error = toAgentError(err);
      this.status = 'FAILED';
    }
    this.resolveFinished();
  }

  isDone(): boolean {
    return this.status !== 'RUNNING';
  }

  view(): AgentCommandResult {
    return { id: this.id, command_name: this.name, command_status: this.status, command_error: this.error?.serialize() ?? null, command_result: this.result as never };
  }
}

/** Options of {@link CommandRegistry}. */
export interface CommandRegistryOptions {
  /** Told when an asynchronous command finishes (IPA forces a heartbeat then). */
  onAsyncDone?: (record: CommandRecord) => void;
  /** Told about command starts and failures. */
  log?: (message: string) => void;
}

/** Known commands and the results of those run. */
export class CommandRegistry {
  private readonly extensions = new Map<string, Map<string, CommandSpec>>();
  private readonly results = new Map<string, Record_>();
  private lock: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: CommandRegistryOptions = {}) {}

  /** Adds `extension.command`. */
  register(extension: string, command: string, spec: CommandSpec): void {
    let commands = this.extensions.get(extension);
    if (!commands) this.extensions.set(extension, (commands = new Map()));
    commands.set(command, spec);
  }

  /** The names of all commands, `extension.command`. */
  names(): string[] {
    return [...this.extensions].flatMap(([ext, cmds]) => [...cmds.keys()].map((c) => `${ext}.${c}`));
  }

  /**
   * Starts `name` with `params` and returns its record (finished for synchronous commands). Throws an
   * AgentRestError (400 malformed or unknown command, 404 unknown extension, 409 busy, or a validator's
   * error) when the command is refused; failures while running are recorded, not thrown.
   */
  execute(name: string, params: CommandParams): Promise<CommandRecord> {
    // One command is started at a time, as IPA's command_lock does; a synchronous command holds the lock
    // until it has finished.
    const next = this.lock.then(() => this.start(name, params));
    this.lock = next.catch(() => undefined);
    return next;
  }

  private async start(name: string, params: CommandParams): Promise<CommandRecord> {
    const dot = name.indexOf('.');
    if (dot <= 0 || dot === name.length - 1) throw invalidCommand('agentCommandNameInvalid');
    const last = [...this.results.values()].at(-1);
    if (last && !last.isDone()) throw agentIsBusy(last.name);
    const extension = name.slice(0, dot);
    const command = name.slice(dot + 1);
    const commands = this.extensions.get(extension);
    if (!commands) throw notFound('agentExtensionNotFound', { id: extension });
    const spec = commands.get(command);
    if (!spec) throw invalidCommand('agentCommandUnknown', { command });
    spec.validate?.(params);
    this.options.log?.(`running command ${name}`);
    // NOTE: IPA names a result by the command alone (`prepare_image`), which Ironic matches when it polls,
    // but a synchronous command that fails is recorded under the full name (`standby.sync`); both kept.
    const record = new Record_(command);
    this.results.set(record.id, record);
    if (!spec.async) {
      try {
        record.succeed(await spec.run(params));
      } catch (err) {
        record.name = name;
        record.fail(err);
        this.options.log?.(`command ${name} failed: ${record.error?.message}`);
      }
      return record;
    }
    void (async () => {
      try {
        record.succeed(await spec.run(params));
      } catch (err) {
        record.fail(err);
        this.options.log?.(`command ${name} failed: ${record.error?.message}`);
      } finally {
        this.options.onAsyncDone?.(record);
      }
    })();
    return record;
  }

  /** All results, oldest first. */
  list(): AgentCommandResult[] {
    return [...this.results.values()].map((r) => r.view());
  }

  /** One result; throws 404 when unknown. */
  get(id: string): CommandRecord {
    const record = this.results.get(id);
    if (!record) throw notFound('agentCommandResultNotFound', { id });
    return record;
  }

  /** True while an asynchronous command runs. */
  busy(): boolean {
    const last = [...this.results.values()].at(-1);
    return last !== undefined && !last.isDone();
  }
}
