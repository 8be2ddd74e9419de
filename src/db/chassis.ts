/** The chassis repository. A chassis with nodes cannot be deleted (ChassisNotEmpty). */
import { sql, type SqlBool } from 'kysely';
import type { Chassis } from '../domain/node.js';
import { fail } from '../shared/errors.js';
import type { SortSpec } from './paging.js';
import type { RepoContext } from './repo-context.js';
import { CHASSIS_SPEC } from './schema.js';
import type { ChassisChanges, ChassisCreate, ChassisRepository, Page } from './store.js';
import { tableRepository } from './table-repository.js';

/** `Chassis <ident> could not be found.` */
export function chassisNotFound(ident: string | number) {
  return fail('ChassisNotFound', { chassis: ident });
}

const SORT: SortSpec = {
  table: 'chassis',
  sortable: new Set(['id', 'uuid', 'description', 'created_at', 'updated_at']),
  notNull: new Set(['uuid', 'created_at']),
  notFound: chassisNotFound,
};

/** Builds the chassis repository. */
export function chassisRepository(ctx: RepoContext): ChassisRepository {
  const table = tableRepository<Chassis>(ctx, {
    table: 'chassis',
    label: 'chassis',
    columns: CHASSIS_SPEC,
    sort: SORT,
    notFound: chassisNotFound,
    unique: { uuid: (v) => fail('ChassisAlreadyExists', { uuid: String(v.uuid) }) },
    deleteOnlyIf: {
      condition: sql<SqlBool>`not exists (select 1 from nodes where nodes.chassis_id = chassis.id)`,
      refused: (uuid) => fail('ChassisNotEmpty', { chassis: uuid }),
    },
  });
  return {
    create: (values: ChassisCreate) => table.create(values),
    get: (uuid: string) => table.get(uuid),
    getById: (id: number) => table.getBy('id', id, id),
    list: (page: Page) => table.list(page),
    update: (uuid: string, changes: ChassisChanges) => table.update(uuid, changes),
    delete: (uuid: string) => table.delete(uuid),
  };
}
