/** The error messages raised in `src/lab/` (see `index.ts` for how a message reads and is raised). */
import type { MessageTable } from './table.js';

export const LAB_MESSAGES = {} as const satisfies MessageTable;
