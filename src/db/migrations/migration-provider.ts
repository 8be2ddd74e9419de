/**
 * Every migration, in order, compiled into the code (no files are read at run time, so a bundled
 * Ingot migrates too). Names sort in application order; never rename or edit one that has shipped.
 */
import type { Migration, MigrationProvider } from 'kysely';
import type { StoreDialect } from '../dialect.js';
import { initialMigration } from './0001-initial.js';
import { nodeVersionMigration } from './0002-node-version.js';
import { nodeInventoryMigration } from './0003-node-inventory.js';
import { inspectionRulesMigration } from './0004-inspection-rules.js';
import { portNameMigration } from './0005-port-name.js';
import { nodeDisablePowerOffMigration } from './0006-node-disable-power-off.js';

/** The migrations for `dialect`, keyed by name. */
export function migrationProvider(dialect: Pick<StoreDialect, 'serialType' | 'autoIncrement'>): MigrationProvider {
  const migrations: Record<string, Migration> = {
    '0001-initial': initialMigration(dialect),
    '0002-node-version': nodeVersionMigration(),
    '0003-node-inventory': nodeInventoryMigration(),
    '0004-inspection-rules': inspectionRulesMigration(dialect),
    '0005-port-name': portNameMigration(),
    '0006-node-disable-power-off': nodeDisablePowerOffMigration(),
  };
  return { getMigrations: async () => migrations };
}
