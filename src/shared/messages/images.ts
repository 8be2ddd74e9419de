/** The error messages raised in `src/images/` (see `index.ts` for how a message reads and is raised). */
import type { MessageTable } from './table.js';

export const IMAGES_MESSAGES = {} as const satisfies MessageTable;
