/**
 * Network functions, command numbers and completion codes of the IPMI commands Ingot speaks
 * (IPMI v2.0 §5.1, §5.2, appendix G). Per-command data codecs live in commands-*.ts.
 */

/** Request network functions (the response netFn is the request's + 1). */
export const NETFN = { CHASSIS: 0x00, BRIDGE: 0x02, SENSOR_EVENT: 0x04, APP: 0x06, FIRMWARE: 0x08, STORAGE: 0x0a, TRANSPORT: 0x0c } as const;

/** Command numbers, grouped by network function. */
export const CMD = {
  APP: {
    GET_DEVICE_ID: 0x01,
    GET_DEVICE_GUID: 0x08,
    GET_CHANNEL_AUTH_CAPABILITIES: 0x38,
    SET_SESSION_PRIVILEGE_LEVEL: 0x3b,
    CLOSE_SESSION: 0x3c,
    GET_CHANNEL_INFO: 0x42,
    GET_CHANNEL_CIPHER_SUITES: 0x54,
  },
  CHASSIS: {
    GET_CHASSIS_CAPABILITIES: 0x00,
    GET_CHASSIS_STATUS: 0x01,
    CHASSIS_CONTROL: 0x02,
    SET_SYSTEM_BOOT_OPTIONS: 0x08,
    GET_SYSTEM_BOOT_OPTIONS: 0x09,
  },
  TRANSPORT: {
    SET_LAN_CONFIG: 0x01,
    GET_LAN_CONFIG: 0x02,
  },
} as const;

/** Generic completion codes (table 5-2) and the command-specific 0x80 "parameter not supported". */
export const COMPLETION = {
  OK: 0x00,
  PARAMETER_NOT_SUPPORTED: 0x80,
  NODE_BUSY: 0xc0,
  INVALID_COMMAND: 0xc1,
  INVALID_FOR_LUN: 0xc2,
  TIMEOUT: 0xc3,
  OUT_OF_SPACE: 0xc4,
  RESERVATION_CANCELLED: 0xc5,
  DATA_TRUNCATED: 0xc6,
  DATA_LENGTH_INVALID: 0xc7,
  DATA_LENGTH_EXCEEDED: 0xc8,
  PARAMETER_OUT_OF_RANGE: 0xc9,
  CANNOT_RETURN_BYTES: 0xca,
  NOT_PRESENT: 0xcb,
  INVALID_DATA_FIELD: 0xcc,
  ILLEGAL_FOR_SENSOR: 0xcd,
  CANNOT_RESPOND: 0xce,
  DUPLICATE_REQUEST: 0xcf,
  SDR_UPDATE_MODE: 0xd0,
  FIRMWARE_UPDATE_MODE: 0xd1,
  INITIALIZATION_IN_PROGRESS: 0xd2,
  DESTINATION_UNAVAILABLE: 0xd3,
  INSUFFICIENT_PRIVILEGE: 0xd4,
  NOT_SUPPORTED_IN_STATE: 0xd5,
  SUBFUNCTION_DISABLED: 0xd6,
  UNSPECIFIED: 0xff,
} as const;

const COMPLETION_TEXT: Record<number, string> = {
  0x00: 'command completed normally',
  0x80: 'parameter not supported',
  0xc0: 'node busy',
  0xc1: 'invalid command',
  0xc2: 'command invalid for given LUN',
  0xc3: 'timeout while processing command',
  0xc4: 'out of space',
  0xc5: 'reservation cancelled or invalid',
  0xc6: 'request data truncated',
  0xc7: 'request data length invalid',
  0xc8: 'request data field length limit exceeded',
  0xc9: 'parameter out of range',
  0xca: 'cannot return number of requested data bytes',
  0xcb: 'requested sensor, data, or record not present',
  0xcc: 'invalid data field in request',
  0xcd: 'command illegal for specified sensor or record type',
  0xce: 'command response could not be provided',
  0xcf: 'cannot execute duplicated request',
  0xd0: 'SDR repository in update mode',
  0xd1: 'device in firmware update mode',
  0xd2: 'BMC initialization in progress',
  0xd3: 'destination unavailable',
  0xd4: 'insufficient privilege level',
  0xd5: 'command not supported in present state',
  0xd6: 'command sub-function disabled or unavailable',
  0xff: 'unspecified error',
};

/** Human text of a completion code, e.g. for error messages. */
export function completionText(code: number): string {
  return knownCompletionText(code) ?? `completion code 0x${code.toString(16).padStart(2, '0')}`;
}

/** The specification's name of a completion code, or undefined for a code it does not name. */
export function knownCompletionText(code: number): string | undefined {
  return COMPLETION_TEXT[code];
}
