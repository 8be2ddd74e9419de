/** The error messages raised in `src/config/` (see `index.ts` for how a message reads and is raised). */
import type { MessageTable } from './table.js';

export const CONFIG_MESSAGES = {} as const satisfies MessageTable;
