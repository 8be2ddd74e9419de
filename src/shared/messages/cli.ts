/**
 * The error messages raised in `src/cli/` (see `index.ts` for how a message reads and is raised): what the
 * client refuses before it sends a request, each naming the option at fault.
 */
import type { MessageTable } from './table.js';

export const CLI_MESSAGES = {
  // cli/context.ts, cli/http-client.ts (the common options)
  apiVersionOptionInvalid: { code: 'InvalidParameterValue', text: "--os-baremetal-api-version must be 1.Y or latest, not '{version}'" },
  endpointUrlInvalid: { code: 'InvalidParameterValue', text: "invalid endpoint URL '{url}'" },

  // cli/output.ts
  formatOptionInvalid: { code: 'InvalidParameterValue', text: "--format must be table, json or value, not '{format}'" },

  // cli/values.ts
  keyValueExpected: { code: 'InvalidParameterValue', text: "{option} expects key=value, got '{arg}'" },
  jsonOptionInvalid: { code: 'InvalidParameterValue', text: '{option}: not valid JSON ({reason}); pass JSON or @file' },
  boolOptionInvalid: { code: 'InvalidParameterValue', text: "{option} expects true or false, got '{value}'" },
  countOptionInvalid: { code: 'InvalidParameterValue', text: "{option} expects a non-negative integer, got '{value}'" },
  optionFileUnreadable: { code: 'InvalidParameterValue', text: '{option}: cannot read {path}: {reason}' },

  // cli/node-crud.ts
  sortDirectionOptionInvalid: { code: 'InvalidParameterValue', text: "--sort direction must be asc or desc, not '{dir}'" },

  // cli/node-actions.ts, cli/wait.ts
  nodeArgumentMissing: { code: 'MissingParameterValue', text: "missing required argument 'node'" },
  verbOptionRequired: { code: 'MissingParameterValue', text: '{verb} needs --{option}' },
  waitOptionInvalid: { code: 'InvalidParameterValue', text: "--wait expects a number of seconds, not '{value}'" },

  // cli/node-update.ts, cli/port-commands.ts
  nothingToChange: { code: 'MissingParameterValue', text: 'nothing to {verb}: pass at least one option (see --help)' },
  pxeOptionsExclusive: { code: 'InvalidParameterValue', text: '--pxe-enabled and --pxe-disabled exclude each other' },
  portAddressNotFound: { code: 'PortNotFound', text: 'Port with address {address} could not be found.' },
} as const satisfies MessageTable;
