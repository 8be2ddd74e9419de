/** The error messages raised in `src/conductor/` (see `index.ts` for how a message reads and is raised). */
import type { MessageTable } from './table.js';

export const CONDUCTOR_MESSAGES = {} as const satisfies MessageTable;
