/** The error messages raised in `src/domain/` (see `index.ts` for how a message reads and is raised). */
import type { MessageTable } from './table.js';

export const DOMAIN_MESSAGES = {} as const satisfies MessageTable;
