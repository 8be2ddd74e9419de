/**
 * The conductor's client of the ramdisk agent's REST API (Ironic's `agent_client.py`): commands are
 * posted to the agent URL its heartbeats announced, with the node's agent token, and answered with
 * IPA's result objects. Errors say which node, command and agent they concern: an agent that cannot be
 * reached, one that is busy with another command (HTTP 409), one that answers garbage, or a command that
 * failed with the agent's own error.
 */
import type { Node } from '../../domain/node.js';
import type {
  AgentCommandList, AgentCommandName, AgentCommandResult, AgentFault,
} from '../../protocol/agent/commands.js';
import { errorMessage, fail, IngotError, messageOf } from '../../shared/errors.js';

/** How long one request to the agent may take (Ironic `[agent]command_timeout`, 60 s). */
export const DEFAULT_COMMAND_TIMEOUT_MS = 60_000;

export interface AgentClientOptions {
  timeoutMs?: number;
  /** Replaces global fetch (tests). */
  fetch?: typeof fetch;
}

/** The agent is running another asynchronous command; retry at the next heartbeat. */
export class AgentBusyError extends IngotError {
  constructor(node: string, command: string) {
    const { code, message } = errorMessage('agentBusy', { node, command });
    super(code, message);
  }
}

function agentOf(node: Pick<Node, 'uuid' | 'driver_internal_info'>): { url: string; token: string } {
  const url = node.driver_internal_info.agent_url;
  const token = node.driver_internal_info.agent_secret_token;
  if (typeof url !== 'string' || url === '') {
    throw fail('agentNoUrl', { node: node.uuid });
  }
  if (typeof token !== 'string' || token === '') {
    throw fail('agentNoToken', { node: node.uuid });
  }
  return { url: url.replace(/\/+$/, ''), token };
}

/** Talks to the agents of nodes; one instance serves every node. */
export class AgentClient {
  private readonly timeoutMs: number;
  private readonly fetchFn: typeof fetch;

  constructor(opts: AgentClientOptions = {}) {
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
    this.fetchFn = opts.fetch ?? fetch;
  }

  /**
   * Runs `name` on the node's agent. With `wait`, the agent answers when the command ended (sync use);
   * without, an asynchronous command answers `RUNNING` and is followed with {@link lastCommand}.
   * Throws AgentBusyError on 409, DriverOperationError when the agent cannot be reached or refuses.
   */
  async command<R = unknown>(
    node: Pick<Node, 'uuid' | 'driver_internal_info'>,
    name: AgentCommandName,
    params: object,
    opts: { wait?: boolean; signal?: AbortSignal } = {},
  ): Promise<AgentCommandResult<R>> {
    const { url, token } = agentOf(node);
    const query = `?wait=${opts.wait ? 'true' : 'false'}&agent_token=${encodeURIComponent(token)}`;
    const res = await this.request(node.uuid, name, `${url}/v1/commands/${query}`, { method: 'POST', body: JSON.stringify({ name, params }) }, opts.signal);
    if (res.status === 409) throw new AgentBusyError(node.uuid, name);
    return this.body<AgentCommandResult<R>>(node.uuid, name, res);
  }

  /** Every command the agent ran since it started (`GET /v1/commands/`), oldest first. */
  async commands(node: Pick<Node, 'uuid' | 'driver_internal_info'>, signal?: AbortSignal): Promise<AgentCommandResult[]> {
    const { url, token } = agentOf(node);
    const res = await this.request(node.uuid, 'the command list', `${url}/v1/commands/?agent_token=${encodeURIComponent(token)}`, { method: 'GET' }, signal);
    return (await this.body<AgentCommandList>(node.uuid, 'the command list', res)).commands;
  }

  /** The newest command called `commandName` (without its extension, e.g. `execute_deploy_step`), or null. */
  async lastCommand(node: Pick<Node, 'uuid' | 'driver_internal_info'>, commandName: string, signal?: AbortSignal): Promise<AgentCommandResult | null> {
    const all = await this.commands(node, signal);
    for (let i = all.length - 1; i >= 0; i--) if (all[i]?.command_name === commandName) return all[i] as AgentCommandResult;
    return null;
  }

  private async request(node: string, what: string, url: string, init: RequestInit, signal?: AbortSignal): Promise<Response> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    try {
      return await this.fetchFn(url, {
        ...init,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (err) {
      if (signal?.aborted) throw err;
      const agent = { node, origin: new URL(url).origin, request: what };
      if (timeout.aborted) throw fail('agentNoAnswerInTime', { ...agent, timeout: this.timeoutMs / 1000 });
      throw fail('agentUnreachable', { ...agent, reason: messageOf((err as { cause?: unknown }).cause ?? err) });
    }
  }

  private async body<T>(node: string, what: string, res: Response): Promise<T> {
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      throw fail('agentAnswerNotJson', { node, request: what, status: res.status, body: text.slice(0, 200) });
    }
    if (!res.ok) {
      const fault = parsed as Partial<AgentFault> | null;
      throw fail('agentRefused', { node, request: what, status: res.status, reason: fault?.faultstring ?? text.slice(0, 200) });
    }
    return parsed as T;
  }
}

/** The text of a failed command's error, for last_error. */
export function commandErrorText(result: AgentCommandResult): string {
  const e = result.command_error;
  if (!e) return `${result.command_name} failed`;
  return e.details ? `${e.message}: ${e.details}` : e.message;
}
