/** The error messages raised in `src/shared/` (see `index.ts` for how a message reads and is raised). */
import type { MessageTable } from './table.js';

export const SHARED_MESSAGES = {
  // raised by more than one folder (the agent's API, the legacy inspector API)
  urlNotFound: { code: 'NotFound', text: 'The requested URL was not found on the server.' },
} as const satisfies MessageTable;
