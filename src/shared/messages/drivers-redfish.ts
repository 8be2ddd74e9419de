/** The error messages raised in `src/drivers/redfish/` (see `index.ts` for how a message reads and is raised). */
import type { MessageTable } from './table.js';

export const DRIVERS_REDFISH_MESSAGES = {
  // driver-info.ts
  redfishAddressMissing: { code: 'MissingParameterValue', text: 'Node {node} is missing driver_info redfish_address (the URL of its Redfish service).' },
  redfishAddressNotUrl: { code: 'InvalidParameterValue', text: 'driver_info redfish_address is not a valid URL: {address}.' },
  redfishAddressNotHttp: { code: 'InvalidParameterValue', text: 'driver_info redfish_address must use http or https, got {address}.' },
  redfishAddressNoHost: { code: 'InvalidParameterValue', text: 'driver_info redfish_address has no host: {address}.' },
  redfishAddressHasQuery: { code: 'InvalidParameterValue', text: 'driver_info redfish_address must not carry a query or fragment: {address}.' },
  redfishAuthTypeInvalid: { code: 'InvalidParameterValue', text: 'driver_info redfish_auth_type must be one of basic, session, auto; got {value}.' },
  redfishVerifyCaNotBoolOrPath: { code: 'InvalidParameterValue', text: 'driver_info redfish_verify_ca must be a boolean or a path, got {value}.' },
  redfishVerifyCaInvalid: {
    code: 'InvalidParameterValue',
    text: 'driver_info redfish_verify_ca must be True, False or the path of an existing CA bundle file or directory, got {value}.',
  },
  redfishRequestTimeoutInvalid: { code: 'InvalidParameterValue', text: 'driver_info redfish_request_timeout must be a positive number of seconds, got {value}.' },
  redfishSystemIdInvalid: { code: 'InvalidParameterValue', text: 'driver_info redfish_system_id must be a path such as /redfish/v1/Systems/1, got {value}.' },

  // client.ts: answers and failures of the BMC (RedfishError, carrying the HTTP status)
  redfishAnswered: { code: 'DriverOperationError', text: 'Redfish BMC {bmc} answered {status} to {method} {path}: {reason}' },
  redfishAnsweredGaveUp: { code: 'DriverOperationError', text: 'Redfish BMC {bmc} answered {status} to {method} {path}: {reason} (gave up after {attempts} attempts)' },
  redfishCredentialsRejected: {
    code: 'DriverOperationError',
    text: 'Redfish BMC {bmc} answered 401 to {method} {path} (credentials rejected: check redfish_username and redfish_password): {reason}',
  },
  redfishRedirectNotUrl: { code: 'DriverOperationError', text: 'Redfish BMC {bmc} answered {status} to {method} {path} (a redirect to {location}, which is not a URL): {reason}' },
  redfishRedirectOtherOrigin: {
    code: 'DriverOperationError',
    text: 'Redfish BMC {bmc} answered {status} to {method} {path} (a redirect to {location}, another origin: not followed; set driver_info redfish_address to {origin}): {reason}',
  },
  redfishTooManyRedirects: {
    code: 'DriverOperationError',
    text: 'Redfish BMC {bmc} answered {status} to {method} {path} (redirected more than {max} times, last to {location}): {reason}',
  },
  redfishRedirectToGet: {
    code: 'DriverOperationError',
    text: 'Redfish BMC {bmc} answered {status} to {method} {path} (a redirect to {location} that would turn {method} into GET: not followed): {reason}',
  },
  redfishLoginNoToken: { code: 'DriverOperationError', text: 'Redfish BMC {bmc} answered {status} to POST {path}: {reason} (no X-Auth-Token in the answer)' },
  redfishUnreachable: { code: 'DriverOperationError', text: 'Redfish BMC {bmc} could not be reached for {method} {path} after {attempts} attempts: {code} {reason}' },
  redfishTlsUntrusted: {
    code: 'DriverOperationError',
    text: 'Redfish BMC {bmc}: TLS certificate verification failed ({code}: {reason}); give driver_info redfish_verify_ca the path of the CA bundle that signed it, or False to skip verification.',
  },
  redfishNoSessionService: { code: 'DriverOperationError', text: 'Redfish BMC {bmc} offers no SessionService; set driver_info redfish_auth_type to basic or auto.' },
  redfishSystemAmbiguous: {
    code: 'MissingParameterValue',
    text: 'Redfish BMC {bmc} has {count} systems ({systems}); set driver_info redfish_system_id to the one to manage.',
  },

  // task-monitor.ts
  redfishTaskTimedOut: { code: 'DriverOperationError', text: 'Redfish BMC {bmc}: the task of {operation} (monitor {monitor}) did not finish within {timeout} s.' },
  redfishTaskFailed: { code: 'DriverOperationError', text: 'Redfish BMC {bmc}: the task of {operation} ended {state}.' },
  redfishTaskFailedSaying: { code: 'DriverOperationError', text: 'Redfish BMC {bmc}: the task of {operation} ended {state}: {messages}.' },

  // system.ts, power.ts
  redfishNoResetType: {
    code: 'PowerStateFailure',
    text: 'Redfish BMC {bmc} system {system} cannot {action}: it allows ResetType {allowed}, and {action} needs one of {wanted}.',
  },
  redfishPowerStateNotReached: {
    code: 'PowerStateFailure',
    text: 'Redfish BMC {bmc} system {system} did not reach \'{target}\' within {timeout} s: PowerState was still {last} after {elapsed} s.',
  },

  // management.ts
  redfishNmiNotAllowed: {
    code: 'DriverOperationError',
    text: 'Redfish BMC {bmc} system {system} cannot inject an NMI: it allows ResetType {allowed}, and an NMI needs ResetType Nmi.',
  },
  redfishBootModeNotAllowed: { code: 'InvalidParameterValue', text: 'Redfish BMC {bmc} system {system} does not support boot mode {mode} (allows {allowed}).' },

  // virtual-media.ts (Ironic's wording first)
  redfishNoMediaDevice: {
    code: 'DriverOperationError',
    text: 'Redfish BMC {bmc} system {system} has no virtual media device for {device} (media types {types}).',
  },
  redfishNoVirtualMedia: { code: 'InvalidParameterValue', text: 'No suitable virtual media device found (no VirtualMedia members on Redfish BMC {bmc} system {system}).' },
  redfishNoFreeVirtualMedia: { code: 'InvalidParameterValue', text: 'No suitable virtual media device found (no free {mediaType} device on Redfish BMC {bmc} system {system}).' },
  redfishVirtualMediaMountFailed: { code: 'InvalidParameterValue', text: 'All virtual media mount attempts failed. Error encountered: {error}' },
  redfishVirtualMediaMountsFailed: { code: 'InvalidParameterValue', text: 'All virtual media mount attempts failed. First error: {first}. Final error: {last}' },

  // inspect.ts
  redfishInspectionIncomplete: { code: 'DriverOperationError', text: 'Redfish inspection of node {node} (BMC {bmc}, system {system}) could not discover: {missing}.' },
} as const satisfies MessageTable;
