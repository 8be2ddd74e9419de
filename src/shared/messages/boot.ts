/** The error messages raised in `src/boot/` (see `index.ts` for how a message reads and is raised). */
import type { MessageTable } from './table.js';

export const BOOT_MESSAGES = {} as const satisfies MessageTable;
