/**
 * The error messages raised in `src/drivers/ipmi/` (see `index.ts` for how a message reads and is raised).
 * The IPMI client's failures (an `IpmiError`, not an IngotError) carry these texts too: the power
 * interface reports them as PowerStateFailure, the management interface as DriverOperationError.
 */
import type { MessageTable } from './table.js';

export const DRIVERS_IPMI_MESSAGES = {
  // driver-info.ts
  ipmiAddressMissing: { code: 'MissingParameterValue', text: 'The IPMI driver needs driver_info/ipmi_address (the BMC’s IP address or host name).' },
  ipmiAddressInvalid: { code: 'InvalidParameterValue', text: 'driver_info/ipmi_address {address} is not an address.' },
  ipmiDriverInfoNotInteger: { code: 'InvalidParameterValue', text: 'driver_info/{key} must be an integer, got {value}.' },
  ipmiPortOutOfRange: { code: 'InvalidParameterValue', text: 'driver_info/ipmi_port must be between 1 and 65535, got {port}.' },
  ipmiCipherSuiteUnsupported: { code: 'InvalidParameterValue', text: 'driver_info/ipmi_cipher_suite must be 3 or 17, got {suite}; Ingot\'s IPMI client speaks only these RMCP+ cipher suites.' },
  ipmiPrivLevelInvalid: { code: 'InvalidParameterValue', text: 'driver_info/ipmi_priv_level must be one of {levels}, got {value}.' },
  ipmiBridgingUnsupported: {
    code: 'InvalidParameterValue',
    text: 'driver_info/ipmi_bridging {value} is not supported: Ingot\'s IPMI client talks to the BMC itself only; set it to "no" or remove it.',
  },
  ipmiProtocolVersionUnsupported: { code: 'InvalidParameterValue', text: 'driver_info/ipmi_protocol_version {version} is not supported: only "2.0" (RMCP+) is.' },
  ipmiUsernameTooLong: { code: 'InvalidParameterValue', text: 'driver_info/ipmi_username is longer than the 16 bytes IPMI allows.' },
  ipmiPasswordTooLong: { code: 'InvalidParameterValue', text: 'driver_info/ipmi_password is longer than the 20 bytes IPMI v2.0 allows.' },

  // power.ts
  ipmiPowerStateNotReached: {
    code: 'PowerStateFailure',
    text: 'BMC {bmc} did not reach {target} after {action} within {timeout} s: the power state was still {seen} after {elapsed} s.',
  },

  // client.ts, session.ts, errors.ts: the IPMI client's failures
  ipmiClientShutDown: { code: 'DriverOperationError', text: 'the IPMI client is shut down' },
  ipmiAddressUnresolved: { code: 'DriverOperationError', text: 'BMC address {address} does not resolve ({reason}): check ipmi_address.' },
  ipmiNoAnswer: {
    code: 'DriverOperationError',
    text: 'BMC {bmc} did not answer {request} within {window} s: check ipmi_address/ipmi_port and that IPMI over LAN is enabled on the BMC.',
  },
  ipmiCommandRefused: { code: 'DriverOperationError', text: 'BMC {bmc} refused {command}: completion code {completion}.' },
  ipmiAuthCapsRefused: { code: 'DriverOperationError', text: 'BMC {bmc} refused Get Channel Authentication Capabilities: completion code {completion}.' },
  ipmiNoRmcpPlus: { code: 'DriverOperationError', text: 'BMC {bmc} does not offer IPMI v2.0 (RMCP+) on this channel; enable it on the BMC (Ingot does not speak IPMI v1.5).' },
  ipmiCipherSuiteNotOffered: { code: 'DriverOperationError', text: 'BMC {bmc} does not offer cipher suite {suite}: Open Session status {status}.' },
  ipmiOpenSessionRefused: { code: 'DriverOperationError', text: 'BMC {bmc} refused to open a session: status {status}.' },
  ipmiUnknownUser: { code: 'DriverOperationError', text: 'BMC {bmc} does not know user {user} (RAKP 2 status {status}): check ipmi_username.' },
  ipmiPrivLevelRefusedRakp2: { code: 'DriverOperationError', text: 'BMC {bmc} refused privilege level {level} for user {user} (RAKP 2 status {status}): check ipmi_priv_level.' },
  ipmiPrivLevelRefused: { code: 'DriverOperationError', text: 'BMC {bmc} refused privilege level {level} for user {user}: completion code {completion}; check ipmi_priv_level.' },
  ipmiRakp2Refused: { code: 'DriverOperationError', text: 'BMC {bmc} refused the session in RAKP 2: status {status}.' },
  ipmiRakp4Refused: { code: 'DriverOperationError', text: 'BMC {bmc} refused the session in RAKP 4: status {status}.' },
  ipmiWrongPasswordRakp2: {
    code: 'DriverOperationError',
    text: 'BMC {bmc} rejected the password of user {user} (the BMC’s RAKP 2 key exchange code does not match ipmi_password): check ipmi_password.',
  },
  ipmiWrongPasswordRakp4: { code: 'DriverOperationError', text: 'BMC {bmc} rejected the password of user {user} (RAKP 4 status {status}): check ipmi_password.' },
  ipmiRakp4IntegrityMismatch: {
    code: 'DriverOperationError',
    text: 'BMC {bmc} sent a RAKP 4 integrity check value that does not match the session key (BMC key K_g set? Ingot does not support ipmi_hex_kg_key).',
  },
  ipmiSessionClosed: { code: 'DriverOperationError', text: 'the session with BMC {bmc} is closed' },

  // commands.ts
  ipmiBootFlagsMissing: { code: 'DriverOperationError', text: 'Get System Boot Options answered parameter {parameter}, not the boot flags' },
} as const satisfies MessageTable;
