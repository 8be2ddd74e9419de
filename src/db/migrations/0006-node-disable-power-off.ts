/**
 * The node flag `disable_power_off` (Ironic API 1.95): Ingot never powers such a machine off. A 0/1
 * flag like every boolean column, not null, 0 for the nodes that exist (Ironic's column defaults to
 * false as well).
 */
import type { Kysely, Migration } from 'kysely';

/** The migration (the same on every dialect). */
export function nodeDisablePowerOffMigration(): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('nodes').addColumn('disable_power_off', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('nodes').dropColumn('disable_power_off').execute();
    },
  };
}
