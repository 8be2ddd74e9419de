/** The error messages raised in `src/drivers/` (see `index.ts` for how a message reads and is raised). */
import type { MessageTable } from './table.js';

export const DRIVERS_MESSAGES = {} as const satisfies MessageTable;
