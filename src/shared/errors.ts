/**
 * Ingot's error: a stable code from the table (`error-codes.ts`) with its HTTP status and hint, and a
 * message from `messages/` rendered with the caller's values. The API renders an {@link IngotError} in
 * Ironic's `error_message` envelope; everything else throws it.
 */
import { ERRORS, type ErrorCode } from './error-codes.js';
import { MESSAGES, type MessageId, type MessageText } from './messages/index.js';
import { maskText } from './mask.js';

export { ERRORS, type ErrorCode, type ErrorSpec } from './error-codes.js';
export type { MessageId } from './messages/index.js';

/** The names a message text leaves open: `{name}` (a name is letters, digits and `_`). */
type Placeholders<T extends string> = T extends `${string}{${infer P}}${infer Rest}`
  ? (P extends `${infer _Head}{${string}` ? never : P) | Placeholders<Rest>
  : never;

/** A value that fills a placeholder (rendered with `String()`: format dates, lists and JSON before). */
export type MessageValue = string | number | bigint | boolean;

/** The values message text `T` needs, by name. */
export type MessageValues<T extends string> = { readonly [K in Placeholders<T>]: MessageValue };

/** What an error may carry besides its message. */
export interface ErrorOptions {
  cause?: unknown;
  /**
   * The HTTP status to answer instead of the code's, as Ironic's exceptions take `code=`: a resource named
   * by a request parameter that does not exist is a 400, not its class's 404.
   */
  status?: number;
}

/** The arguments after the id: the values when the message needs some, then the options. */
export type FailArgs<M extends MessageId> = [Placeholders<MessageText<M>>] extends [never]
  ? [values?: Record<string, never>, options?: ErrorOptions]
  : [values: MessageValues<MessageText<M>>, options?: ErrorOptions];

/** The error every Ingot layer throws: a stable code, its HTTP status and a message for the operator. */
export class IngotError extends Error {
  readonly code: ErrorCode;
  readonly status: number;

  constructor(code: ErrorCode, message: string, options?: ErrorOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = code;
    this.code = code;
    this.status = options?.status ?? ERRORS[code].status;
  }

  /** What the operator can do about it. */
  get hint(): string {
    return ERRORS[this.code].hint;
  }
}

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * The text of message `id` with `values` put in; a placeholder without a value stays as it is. Values
 * come from users, BMCs and agents, so the text is masked (`maskText`): an error quoting a request,
 * a URL or a command line shows no password in an answer, last_error or a log.
 */
function render(text: string, values: Readonly<Record<string, MessageValue>> | undefined): string {
  if (!values) return text;
  return maskText(text.replace(PLACEHOLDER, (whole, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : whole)));
}

/** The code and rendered text of message `id` (for error classes that add fields of their own). */
export function errorMessage<M extends MessageId>(id: M, ...[values]: FailArgs<M>): { code: ErrorCode; message: string } {
  const spec = MESSAGES[id] as { code: ErrorCode; text: string };
  return { code: spec.code, message: render(spec.text, values as Readonly<Record<string, MessageValue>> | undefined) };
}

/** The error of message `id` with `values`: `throw fail('NodeNotFound', { node: ident })`. */
export function fail<M extends MessageId>(id: M, ...args: FailArgs<M>): IngotError;
export function fail(id: string, values?: Readonly<Record<string, MessageValue>>, options?: ErrorOptions): IngotError {
  const spec = (MESSAGES as Readonly<Record<string, { code: ErrorCode; text: string }>>)[id];
  if (!spec || !Object.hasOwn(MESSAGES, id)) return new IngotError('Internal', `No error message "${id}".`, options);
  return new IngotError(spec.code, render(spec.text, values), options);
}

/** The message of anything thrown, for `last_error` and logs. */
export function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
