/**
 * The conductor contract as JSON, the shape Ironic's `common/json_rpc/` gives its conductor RPC API: a
 * call is a JSON-RPC 2.0 request (`method`, `params` by name, `id`) and its answer a JSON-RPC response,
 * `result` or `error` (the HTTP status of the error as `code`, its message, and its Ingot error code as
 * `data.class`, rebuilt into the same {@link IngotError} on the calling side; an error that is not an
 * IngotError is a bug, logged where it happened and answered as `Internal`).
 *
 * {@link jsonConductorClient} is the calling side (every method of {@link ConductorClient}, over any
 * `send`), {@link serveConductorCall} the answering side, {@link loopbackConductorClient} both in one
 * process. A network transport puts `send` on a socket and `serveConductorCall` behind it.
 *
 * Nothing is changed silently on the way: an argument or an answer that would not come back from JSON
 * as it is (an `undefined` inside it, a Date, a Map, a class instance, NaN, …) is refused as `Internal`
 * on the side that has it, naming the method and the place. An optional argument left out (undefined)
 * is simply absent from `params`.
 *
 * The caller's request context (`shared/request-context.ts`: user, project, request id) travels as the
 * `context` member of the request, as Ironic's JSON-RPC carries its `context`; the answering side runs
 * the call in it, and in no other (a call without one runs in none).
 */
import { ERRORS, errorMessage, fail, IngotError, type ErrorCode } from '../shared/errors.js';
import { jsonProblem, type Json } from '../shared/json.js';
import type { Logger } from '../shared/logger.js';
import { isRecord } from '../shared/own-keys.js';
import { currentRequestContext, isRequestContext, runInRequestContext, type RequestContext } from '../shared/request-context.js';
import type { ConductorClient } from './client.js';

/** A method of the contract. */
export type ConductorMethod = keyof ConductorClient;

/** One name per parameter of `F`, optional ones included. */
type ParamNames<F> = F extends (...args: infer P) => unknown ? { [I in keyof P]-?: string } : never;

/**
 * The parameter names of every call, by which `params` carries the arguments. The type requires every
 * method of the contract, and one name for each of its parameters: a method added to the contract
 * without its line here does not compile.
 */
const PARAMS: { readonly [M in ConductorMethod]: ParamNames<ConductorClient[M]> } = {
  createNode: ['values'],
  updateNode: ['ident', 'changes'],
  destroyNode: ['ident'],
  setPowerState: ['ident', 'target', 'timeout_seconds'],
  doProvisionAction: ['ident', 'verb', 'options'],
  validate: ['ident'],
  setMaintenance: ['ident', 'enabled', 'reason'],
  getBootDevice: ['ident'],
  setBootDevice: ['ident', 'device', 'persistent'],
  getSupportedBootDevices: ['ident'],
  injectNmi: ['ident'],
  continueInspection: ['body', 'node_uuid'],
  lookupAgent: ['macs', 'node_uuid'],
  agentHeartbeat: ['ident', 'heartbeat'],
  setBootMode: ['ident', 'mode'],
  setSecureBoot: ['ident', 'enabled'],
  getVirtualMedia: ['ident'],
  attachVirtualMedia: ['ident', 'request'],
  detachVirtualMedia: ['ident', 'device_types'],
  setTargetRaidConfig: ['ident', 'config'],
  getConsole: ['ident'],
  setConsoleMode: ['ident', 'enabled'],
  setTraits: ['ident', 'traits'],
  addTrait: ['ident', 'trait'],
  removeTrait: ['ident', 'trait'],
  createPort: ['values'],
  updatePort: ['uuid', 'changes'],
  destroyPort: ['uuid'],
  createPortgroup: ['values'],
  updatePortgroup: ['uuid', 'changes'],
  destroyPortgroup: ['uuid'],
  listDrivers: [],
  getDriver: ['name'],
  driverProperties: ['name'],
  conductorsFor: ['nodes'],
};

/**
 * No call answers a bare null, so a null `result` is the answer of a call that answers nothing (void).
 * A method whose answer may be null does not compile here until the answer encoding says otherwise.
 */
type AnswersNull = { [M in ConductorMethod]: null extends Awaited<ReturnType<ConductorClient[M]>> ? M : never }[ConductorMethod];
const _noNullAnswers: [AnswersNull] extends [never] ? true : AnswersNull = true;

/** The methods of the contract, in the order of the table. */
export const CONDUCTOR_METHODS = Object.keys(PARAMS) as ConductorMethod[];

/** A call as it travels. */
export interface ConductorRequest {
  jsonrpc: '2.0';
  id: number;
  method: ConductorMethod;
  params: { [name: string]: Json };
  /** Who asked, when the call comes from a request. */
  context?: RequestContext;
}

/** The error of an answer: the status and message of an {@link IngotError}, its code as `data.class`. */
export interface ConductorRpcError {
  code: number;
  message: string;
  data: { class: ErrorCode };
}

/** An answer as it travels. */
export type ConductorResponse =
  | { jsonrpc: '2.0'; id: number | null; result: Json }
  | { jsonrpc: '2.0'; id: number | null; error: ConductorRpcError };

/** The JSON-RPC codes of a request that cannot be run at all (JSON-RPC 2.0 §5.1). */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;

/**
 * An error the conductor answered, rebuilt on the calling side: its code and the message as the
 * conductor rendered it (as Ironic's JSON-RPC client re-raises the exception class with the message).
 */
export class ConductorCallError extends IngotError {}

const isMethod = (m: unknown): m is ConductorMethod => typeof m === 'string' && Object.hasOwn(PARAMS, m);

/** Sends one request text and resolves with the answer text. */
export type ConductorSend = (request: string) => Promise<string>;

/**
 * The calling side: a {@link ConductorClient} each of whose calls becomes one request text handed to
 * `send`, and whose answer text becomes the result or the rebuilt IngotError.
 */
export function jsonConductorClient(send: ConductorSend): ConductorClient {
  let nextId = 1;
  const call = async (method: ConductorMethod, args: unknown[]): Promise<unknown> => {
    const names: readonly string[] = PARAMS[method];
    if (args.length > names.length) throw fail('conductorCallTooManyArgs', { method, count: names.length, given: args.length });
    const params: { [name: string]: Json } = {};
    args.forEach((arg, i) => {
      if (arg === undefined) return;
      const name = names[i] as string;
      const problem = jsonProblem(arg, name);
      if (problem) throw fail('conductorCallNotSerialisable', { method, problem });
      params[name] = arg as Json;
    });
    const context = currentRequestContext();
    const request: ConductorRequest = { jsonrpc: '2.0', id: nextId++, method, params, ...(context ? { context } : {}) };
    const answer = JSON.parse(await send(JSON.stringify(request))) as ConductorResponse;
    if ('error' in answer) {
      const code = answer.error.data?.class;
      throw new ConductorCallError(typeof code === 'string' && Object.hasOwn(ERRORS, code) ? code : 'Internal', String(answer.error.message));
    }
    return answer.result === null ? undefined : answer.result;
  };
  const client = {} as Record<ConductorMethod, (...args: unknown[]) => Promise<unknown>>;
  for (const method of CONDUCTOR_METHODS) client[method] = (...args) => call(method, args);
  return client as unknown as ConductorClient;
}

/** The answer of a failed call: `error` is an {@link IngotError} or a rendered message (`errorMessage`). */
function errorAnswer(id: number | null, code: number, error: { code: ErrorCode; message: string }): string {
  const answer: ConductorResponse = { jsonrpc: '2.0', id, error: { code, message: error.message, data: { class: error.code } } };
  return JSON.stringify(answer);
}

/**
 * The answering side: runs one request text against `target` and resolves with the answer text (never
 * rejects). An error that is not an IngotError is logged to `logger` with its stack and answered as
 * `Internal`, as the API answers one.
 */
export async function serveConductorCall(target: ConductorClient, requestText: string, logger?: Logger): Promise<string> {
  let request: unknown;
  try {
    request = JSON.parse(requestText);
  } catch {
    return errorAnswer(null, PARSE_ERROR, errorMessage('conductorRequestNotJson'));
  }
  if (!isRecord(request) || request.jsonrpc !== '2.0' || typeof request.id !== 'number' || !isRecord(request.params)) {
    return errorAnswer(null, INVALID_REQUEST, errorMessage('conductorRequestNotRpc'));
  }
  const { id, method, params } = request;
  const context = request.context;
  if (context !== undefined && !isRequestContext(context)) return errorAnswer(id, INVALID_REQUEST, errorMessage('conductorContextInvalid'));
  if (!isMethod(method)) return errorAnswer(id, METHOD_NOT_FOUND, errorMessage('conductorMethodUnknown', { method: JSON.stringify(method) ?? 'undefined' }));
  const names: readonly string[] = PARAMS[method];
  const unknown = Object.keys(params).filter((k) => !names.includes(k));
  if (unknown.length > 0) return errorAnswer(id, INVALID_PARAMS, errorMessage('conductorParamsUnknown', { method, params: unknown.join(', ') }));
  const args = names.map((n) => (Object.hasOwn(params, n) ? params[n] : undefined));
  try {
    // The table names the method and its parameters; the arguments are the JSON the caller typed.
    const result: unknown = await runInRequestContext(context, () => (target[method] as (...a: unknown[]) => Promise<unknown>).apply(target, args));
    const problem = result === undefined ? null : jsonProblem(result, 'the answer');
    if (problem) throw fail('conductorAnswerNotSerialisable', { method, problem });
    const answer: ConductorResponse = { jsonrpc: '2.0', id, result: (result ?? null) as Json };
    return JSON.stringify(answer);
  } catch (err) {
    if (err instanceof IngotError) return errorAnswer(id, err.status, err);
    logger?.error({ err, method }, 'conductor call failed');
    return errorAnswer(id, ERRORS.Internal.status, errorMessage('internalError'));
  }
}

/** `target` behind the JSON transport, in one process: every call and answer goes through JSON text. */
export function loopbackConductorClient(target: ConductorClient, logger?: Logger): ConductorClient {
  return jsonConductorClient((request) => serveConductorCall(target, request, logger));
}
