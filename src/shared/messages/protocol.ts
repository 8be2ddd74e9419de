/** The error messages raised in `src/protocol/` (see `index.ts` for how a message reads and is raised). */
import type { MessageTable } from './table.js';

export const PROTOCOL_MESSAGES = {} as const satisfies MessageTable;
