/** The error messages raised in `src/agent/` (see `index.ts` for how a message reads and is raised). */
import type { MessageTable } from './table.js';

export const AGENT_MESSAGES = {} as const satisfies MessageTable;
