/**
 * The error messages raised in `src/drivers/` (see `index.ts` for how a message reads and is raised);
 * those of the Redfish and IPMI drivers are in `drivers-redfish.ts` and `drivers-ipmi.ts`.
 */
import type { MessageTable } from './table.js';

export const DRIVERS_MESSAGES = {
  // registry.ts
  unknownHardwareType: { code: 'ConfigInvalid', text: 'conductor.enabled_hardware_types: unknown hardware type "{name}"; known: {known}.' },
  hardwareTypeLacksInterface: { code: 'ConfigInvalid', text: 'hardware type {name} has no available {iface} interface.' },
  noConductorForDriver: {
    code: 'NoValidHost',
    text: 'No valid host was found. Reason: No conductor service registered which supports driver {driver} for conductor group "{group}".',
  },
  interfaceNotInEntrypoint: {
    code: 'InterfaceNotFoundInEntrypoint',
    text: 'Could not find the following interface in the \'ironic.hardware.interfaces.{iface}\' entrypoint: {name}. Valid interfaces are {valid}.',
  },
  interfaceNotSupportedByHardwareType: { code: 'InvalidParameterValue', text: '{iface} interface implementation \'{name}\' is not supported by hardware type {driver}.' },

  // raid-config.ts (Ironic's raid_config_schema)
  raidLogicalDisksMissing: { code: 'InvalidParameterValue', text: 'RAID config validation error: "logical_disks" must be a non-empty list.' },
  raidConfigUnknownKeys: { code: 'InvalidParameterValue', text: 'RAID config validation error: unknown keys {keys}.' },
  raidLogicalDiskNotObject: { code: 'InvalidParameterValue', text: 'RAID config validation error: logical_disks[{index}] must be an object.' },
  raidSizeInvalid: { code: 'InvalidParameterValue', text: 'RAID config validation error: logical_disks[{index}].size_gb must be a positive integer or "MAX".' },
  raidLevelInvalid: { code: 'InvalidParameterValue', text: 'RAID config validation error: logical_disks[{index}].raid_level must be one of {levels}.' },

  // driver_info of every hardware type (redfish, ipmi)
  driverInfoNotString: { code: 'InvalidParameterValue', text: 'driver_info/{key} must be a string, got {value}.' },

  // power and management interfaces of every hardware type (fake, ipmi, redfish; Ironic's wording)
  invalidPowerState: { code: 'InvalidParameterValue', text: 'set_power_state called with an invalid power state: {state}.' },
  invalidBootDevice: { code: 'InvalidParameterValue', text: 'Invalid boot device {device} specified, supported are {supported}.' },
  invalidBootMode: { code: 'InvalidParameterValue', text: 'Invalid boot mode {mode} specified, supported are {supported}.' },

  // network-boot/
  networkBootNotConfigured: {
    code: 'ConfigInvalid',
    text: 'The {iface} boot interface needs network boot ([boot] settings, a DHCP provider and the image cache), which this conductor is not configured with.',
  },
  bootOptionsMissing: { code: 'ConfigInvalid', text: 'The {iface} boot interface needs [boot] {options} to be set.' },
  bootImageFetchFailed: { code: 'DriverOperationError', text: 'Could not fetch {image} of node {node} from {url}: {reason}' },
  nodeParametersMissing: { code: 'MissingParameterValue', text: 'Some parameters were missing in node\'s {field}. Missing are: {missing}' },
  capabilitiesNotJson: { code: 'InvalidParameterValue', text: 'instance_info.capabilities of node {node} is not a JSON object: {capabilities}' },
  bootOptionInvalid: { code: 'InvalidParameterValue', text: 'Invalid boot_option "{option}" in instance_info.capabilities of node {node}: expected local or ramdisk.' },
  noPxePort: {
    code: 'InvalidParameterValue',
    text: 'Node {node} has no PXE-enabled port: create a port with its boot MAC (pxe_enabled true) to boot it from the network.',
  },
  bootApiUrlEmpty: {
    code: 'ConfigInvalid',
    text: 'boot.api_url is empty: the ramdisk agent would not know where the Ingot API is (set it to the URL machines reach the API at).',
  },
  bootValueNotOneLine: { code: 'InvalidParameterValue', text: '{field} must be one line of printable text.' },
  bootUrlHasSpaces: { code: 'InvalidParameterValue', text: '{field} must be a URL without spaces, not "{url}".' },
  bootUrlScheme: { code: 'InvalidParameterValue', text: '{field} must be an http(s):// or file:// URL, not "{url}".' },

  // http/
  httpBootNeedsUefi: {
    code: 'InvalidParameterValue',
    text: 'Node {node} is set to boot in legacy BIOS mode ({field}: boot_mode "{mode}"), but the http boot interface uses UEFI HTTP boot, which only UEFI firmware has. Set the node to UEFI, or use the pxe or ipxe boot interface.',
  },
  httpUrlNotUrl: { code: 'ConfigInvalid', text: 'The http boot interface needs [boot] http_url to be a URL, not "{url}".' },
  httpUrlNotHttp: { code: 'ConfigInvalid', text: 'The http boot interface needs an http:// [boot] http_url (GRUB fetches over plain HTTP), not "{url}".' },
  httpUrlHasExtras: { code: 'ConfigInvalid', text: 'The http boot interface needs [boot] http_url without credentials, query or fragment, not "{url}".' },
  httpUrlUnsafeForGrub: {
    code: 'ConfigInvalid',
    text: '[boot] http_url "{url}" holds characters GRUB would misread: use letters, digits, ".", "-", "_", "~" and "/".',
  },

  // agent/
  agentNoUrl: { code: 'DriverOperationError', text: 'Node {node} has no agent URL: the ramdisk agent has not heartbeated yet.' },
  agentNoToken: { code: 'DriverOperationError', text: 'Node {node} has no agent token: the ramdisk agent has not looked the node up.' },
  agentBusy: { code: 'NodeLocked', text: 'The agent of node {node} is busy with another command; {command} will be retried.' },
  agentUnreachable: { code: 'DriverOperationError', text: 'The agent of node {node} at {origin} could not be reached for {request}: {reason}.' },
  agentNoAnswerInTime: { code: 'DriverOperationError', text: 'The agent of node {node} at {origin} could not be reached for {request}: no answer within {timeout} s.' },
  agentAnswerNotJson: { code: 'DriverOperationError', text: 'The agent of node {node} answered {request} with HTTP {status} and a body that is not JSON: {body}' },
  agentRefused: { code: 'DriverOperationError', text: 'The agent of node {node} refused {request} (HTTP {status}): {reason}' },
  agentForgotCommand: {
    code: 'DriverOperationError',
    text: 'The agent has no record of the {command} command of step {step}: it restarted or is another agent.',
  },
  agentStepFailed: { code: 'DriverOperationError', text: 'The agent failed {kind} step {step}: {reason}' },
  rootDeviceHintsInvalid: { code: 'InvalidParameterValue', text: 'Node {node}: properties.root_device is invalid: {reason}' },
  imageSourceMissing: {
    code: 'MissingParameterValue',
    text: 'Node {node} is missing instance_info.image_source: set it to the http(s):// or file:// URL of the image to deploy.',
  },
  imageSourceNotUrl: { code: 'InvalidParameterValue', text: 'instance_info.image_source of node {node} must be an http(s):// or file:// URL, not "{source}".' },
  imageChecksumMissing: {
    code: 'MissingParameterValue',
    text: 'image_source\'s "image_checksum", or "image_os_hash_algo" and "image_os_hash_value" must be provided in instance_info for node {node} (file:// images included): a digest or the URL of a checksum file.',
  },
  imageHashAlgoMissing: { code: 'MissingParameterValue', text: 'Node {node}: instance_info.image_os_hash_value needs image_os_hash_algo (sha256 or sha512).' },

  // fake/
  fakeDelayInvalid: { code: 'InvalidParameterValue', text: 'driver_info {key} must be seconds or a "min:max" range of seconds, got {value}.' },
  fakeDelayRangeReversed: { code: 'InvalidParameterValue', text: 'driver_info {key}: the maximum {max} is below the minimum {min}.' },
  // NOTE: fake_power_error holds the message itself (what a failing BMC would say).
  fakePowerError: { code: 'PowerStateFailure', text: '{error}' },
  fakeStepSettingsNotList: { code: 'InvalidParameterValue', text: 'The step argument "settings" must be a list of objects.' },
  fakeVendorMethodUnsupported: { code: 'InvalidParameterValue', text: 'Unsupported method ({method}) passed to fake vendor interface.' },
  fakeVendorBarMissing: { code: 'MissingParameterValue', text: 'Parameter \'bar\' not passed to method \'first_method\'.' },
  fakeVmediaDeviceInvalid: { code: 'InvalidParameterValue', text: 'Invalid virtual media device type {device}; use one of {supported}.' },
  fakeVmediaDeviceOccupied: { code: 'InvalidParameterValue', text: 'No suitable virtual media device found (the fake {device} holds {image}).' },

  // inspector/ (the ironic-inspector client and inspect interface)
  inspectorNotConfigured: {
    code: 'InvalidParameterValue',
    text: 'The "inspector" inspect interface needs an ironic-inspector service, but [inspector] service_url is not set in the conductor configuration (e.g. http://10.0.0.5:5050). Set it, or choose another inspect_interface ("agent" inspects in band without a separate service).',
  },
  inspectorUrlInvalid: { code: 'ConfigInvalid', text: '[inspector] service_url "{url}" is not a valid URL (expected e.g. http://10.0.0.5:5050).' },
  inspectorUrlNotHttp: { code: 'ConfigInvalid', text: '[inspector] service_url "{url}" must be an http:// or https:// URL.' },
  inspectorAborted: { code: 'DriverOperationError', text: 'ironic-inspector at {url} ({method} {path}): request aborted.' },
  inspectorTimedOut: {
    code: 'DriverOperationError',
    text: 'ironic-inspector at {url} ({method} {path}) did not answer within {timeout} s. Check that the service runs and [inspector] service_url points at it.',
  },
  inspectorUnreachable: {
    code: 'DriverOperationError',
    text: 'ironic-inspector at {url} ({method} {path}) is unreachable: {reason}. Check that the service runs and [inspector] service_url points at it.',
  },
  inspectorAnswered: { code: 'DriverOperationError', text: 'ironic-inspector at {url} ({method} {path}) answered HTTP {status}: {reason}' },
  inspectorDataNotObject: { code: 'DriverOperationError', text: 'ironic-inspector at {url} ({method} {path}) answered with a body that is not a JSON object.' },
  inspectorStatusInvalid: {
    code: 'DriverOperationError',
    text: 'ironic-inspector at {url} ({method} {path}) answered with an introspection status without a boolean "finished": {body}',
  },
} as const satisfies MessageTable;
