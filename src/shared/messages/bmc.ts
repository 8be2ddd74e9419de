/** The error messages raised in `src/bmc/` (see `index.ts` for how a message reads and is raised). */
import type { MessageTable } from './table.js';

export const BMC_MESSAGES = {} as const satisfies MessageTable;
