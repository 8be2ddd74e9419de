/** The shape of a table of error messages (see `index.ts`). */
import type { ErrorCode } from '../error-codes.js';

/** One message: the code it is raised with and its text, `{name}` standing for a value. */
export interface MessageSpec {
  readonly code: ErrorCode;
  readonly text: string;
}

/** Messages by id (lowerCamelCase, saying what went wrong: `stepNotSupported`, `redfishAddressNotUrl`). */
export type MessageTable = Readonly<Record<string, MessageSpec>>;
