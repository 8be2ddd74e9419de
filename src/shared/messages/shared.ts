/** The error messages raised in `src/shared/` (see `index.ts` for how a message reads and is raised). */
import type { MessageTable } from './table.js';

export const SHARED_MESSAGES = {
  // raised by more than one folder (the agent's API, the legacy inspector API)
  urlNotFound: { code: 'NotFound', text: 'The requested URL was not found on the server.' },
  // what a caller sees of a failure that was no IngotError (the API, the conductor's JSON transport)
  internalError: { code: 'Internal', text: 'Internal server error; see the server log.' },

  // abort.ts
  operationAborted: { code: 'Internal', text: 'The operation was aborted ({reason}).' },

  // checksum-file.ts (a ChecksumFileError; the image pipeline raises it again as an ImageError)
  checksumFileEmpty: { code: 'InvalidParameterValue', text: 'Checksum file {file} is empty.' },
  checksumFileNoChecksum: { code: 'InvalidParameterValue', text: 'Checksum file {file} holds "{text}", which is no checksum.' },
  checksumFileNoLine: { code: 'InvalidParameterValue', text: 'Checksum file {file} has no line for {name}.' },

  // mac.ts (Ironic's wording, saying "Ethernet" when only 6-octet MACs are taken)
  macInvalid: { code: 'InvalidParameterValue', text: 'Expected a MAC address but received {value}.' },
  ethernetMacInvalid: {
    code: 'InvalidParameterValue',
    text: 'Expected an Ethernet MAC address (six hex octets, e.g. 52:54:00:12:34:56) but received {value}.',
  },

  // strict-bool.ts (oslo strutils.bool_from_string)
  booleanInvalid: { code: 'InvalidParameterValue', text: 'Invalid boolean value for {name}: {value}. Expected one of true, false, 1, 0, yes, no, on, off.' },
} as const satisfies MessageTable;
