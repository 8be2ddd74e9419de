/** The error messages raised in `src/inspection/` (see `index.ts` for how a message reads and is raised). */
import type { MessageTable } from './table.js';

export const INSPECTION_MESSAGES = {} as const satisfies MessageTable;
