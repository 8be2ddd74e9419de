/** The error messages raised in `src/db/` (see `index.ts` for how a message reads and is raised). */
import type { MessageTable } from './table.js';

export const DB_MESSAGES = {
  // db/nodes.ts
  nodeChassisMissing: { code: 'ChassisNotFound', text: 'The chassis of the node could not be found.' },
  nodeNotLockedBy: { code: 'NodeLocked', text: 'Node {node} is not locked by host {host}; take the lock first.' },

  // db/ports.ts (Ironic's PortDuplicateName)
  portNameExists: { code: 'DuplicateName', text: 'A port with name {name} already exists.' },
  portParentMissing: { code: 'InvalidParameterValue', text: 'The node or port group of the port does not exist.' },

  // db/portgroups.ts (Ironic's PortgroupDuplicateName, PortgroupMACAlreadyExists)
  portgroupNameExists: { code: 'PortgroupAlreadyExists', text: 'A portgroup with name {name} already exists.' },
  portgroupAddressExists: { code: 'PortgroupAlreadyExists', text: 'A portgroup with MAC address {mac} already exists.' },
  portgroupNodeMissing: { code: 'InvalidParameterValue', text: 'The node of the portgroup does not exist.' },

  // db/rules.ts (the legacy inspector API's rules, in ironic-inspector's wording)
  legacyRuleNotFound: { code: 'InspectionRuleNotFound', text: 'Rule {rule} was not found' },
  legacyRuleExists: { code: 'InspectionRuleAlreadyExists', text: 'Rule with UUID {uuid} already exists' },

  // db/paging.ts
  invalidSortKey: { code: 'InvalidParameterValue', text: 'The sort_key value "{key}" is an invalid field for sorting' },
  invalidSortDirection: { code: 'InvalidParameterValue', text: 'Invalid sort direction: {dir}. Acceptable values are \'asc\' or \'desc\'' },

  // db/row-mapping.ts ({table} is the row's kind: node, port, …)
  fieldNotWritable: { code: 'InvalidParameterValue', text: '{table} has no writable field "{field}".' },

  // db/open-store.ts ({url} has its password hidden)
  databaseUrlNoDirectory: { code: 'ConfigInvalid', text: 'database.url "{url}" names no directory.' },
  databaseUrlUnsupported: {
    code: 'ConfigInvalid',
    text: 'database.url "{url}" is not supported: use a postgres:// or postgresql:// URL, or leave it empty for the embedded SQLite file.',
  },
  databaseOpenFailed: { code: 'ConfigInvalid', text: 'Cannot open the database ({target}): {reason}' },
} as const satisfies MessageTable;
