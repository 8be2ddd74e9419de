/** The error messages raised in `src/cli/` (see `index.ts` for how a message reads and is raised). */
import type { MessageTable } from './table.js';

export const CLI_MESSAGES = {} as const satisfies MessageTable;
