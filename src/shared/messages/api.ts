/** The error messages raised in `src/api/` (see `index.ts` for how a message reads and is raised). */
import type { MessageTable } from './table.js';

export const API_MESSAGES = {} as const satisfies MessageTable;
