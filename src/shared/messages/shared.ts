/** The error messages raised in `src/shared/` (see `index.ts` for how a message reads and is raised). */
import type { MessageTable } from './table.js';

export const SHARED_MESSAGES = {} as const satisfies MessageTable;
