/** The messages of the codes whose message has one shape, under the code's name (see `index.ts`). */
import { ERRORS, type ErrorCode } from '../error-codes.js';
import type { MessageSpec } from './table.js';

/** The codes of the table that carry a message of their own. */
type CodeWithMessage = { [C in ErrorCode]: (typeof ERRORS)[C] extends { message: string } ? C : never }[ErrorCode];

/** The message of each such code, under the code's name. */
type CodeMessages = { readonly [C in CodeWithMessage]: { readonly code: C; readonly text: (typeof ERRORS)[C] extends { message: infer T extends string } ? T : never } };

function codeMessages(): CodeMessages {
  const out: Record<string, MessageSpec> = {};
  for (const [code, spec] of Object.entries(ERRORS) as [ErrorCode, { message?: string }][]) {
    if (spec.message !== undefined) out[code] = { code, text: spec.message };
  }
  return out as CodeMessages;
}

export const CODE_MESSAGES = codeMessages();
