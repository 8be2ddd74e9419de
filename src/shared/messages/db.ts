/** The error messages raised in `src/db/` (see `index.ts` for how a message reads and is raised). */
import type { MessageTable } from './table.js';

export const DB_MESSAGES = {} as const satisfies MessageTable;
