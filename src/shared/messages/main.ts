/** The error messages raised in `src/main/` (see `index.ts` for how a message reads and is raised). */
import type { MessageTable } from './table.js';

export const MAIN_MESSAGES = {} as const satisfies MessageTable;
