/**
 * The error messages raised in `src/agent/` (see `index.ts` for how a message reads and is raised).
 *
 * The agent's API answers ironic-python-agent's errors (`agent/api/errors.ts`, IPA's `RESTError`
 * classes): the factory that raises one gives its IPA class, status and fixed title, and a message here
 * gives its `details`. Their code is the nearest Ingot code: the agent API does not send it. Texts that
 * Ironic reads (`Unknown command`, "Agent is busy") and IPA's own wordings stay as IPA writes them.
 */
import type { MessageTable } from './table.js';

export const AGENT_MESSAGES = {
  // agent/config.ts ({param} is the parameter as given: a kernel parameter or a --flag)
  agentArgumentUnexpected: { code: 'InvalidParameterValue', text: 'Unexpected argument "{argument}": the agent takes only --flags (see --help).' },
  agentParamValueMissing: { code: 'MissingParameterValue', text: '{param}: a value is required.' },
  agentParamUrlMissing: { code: 'MissingParameterValue', text: '{param}: a URL is required.' },
  agentParamNotUrl: { code: 'InvalidParameterValue', text: '{param}: "{value}" is not a URL.' },
  agentParamNotHttp: { code: 'InvalidParameterValue', text: '{param}: "{value}" must start with http:// or https:// (mdns discovery is not supported).' },
  agentParamNotBoolean: { code: 'InvalidParameterValue', text: '{param}: "{value}" is not a boolean (use true/false, 1/0, yes/no, on/off).' },
  agentParamNotSeconds: { code: 'InvalidParameterValue', text: '{param}: "{value}" is not a positive number of seconds.' },
  agentParamNotDuration: { code: 'InvalidParameterValue', text: '{param}: "{value}" is not a number of seconds ≥ 0.' },
  agentParamNotCount: { code: 'InvalidParameterValue', text: '{param}: "{value}" is not a whole number ≥ 0.' },
  agentParamNotPort: { code: 'InvalidParameterValue', text: '{param}: "{value}" is not a port number (0-65535).' },
  agentParamNotManager: { code: 'InvalidParameterValue', text: '{param}: "{value}" is not a hardware manager (choose {choices}).' },
  bootifNotMac: { code: 'InvalidParameterValue', text: 'BOOTIF: "{value}" is not a MAC address (expected 01-aa-bb-cc-dd-ee-ff or aa:bb:cc:dd:ee:ff).' },

  // agent/main.ts, deploy-host.ts (the simulated machine)
  simulatedProfileMissing: { code: 'MissingParameterValue', text: 'ipa-simulated-profile: the simulated hardware manager needs a JSON hardware profile file.' },
  simulatedProfileInvalid: { code: 'InvalidParameterValue', text: 'ipa-simulated-profile: {file}: {reason}' },
  simulatedDiskUnknown: { code: 'InvalidParameterValue', text: 'ipa-simulated-disk: the profile has no disk {disk} (it has {disks}).' },

  // agent/heartbeat.ts, inspect.ts
  agentLookupFailed: { code: 'DriverOperationError', text: 'Could not look up the node at {url} with addresses {addresses} within {seconds} s: {reason}' },
  inspectionCallbackRefused: { code: 'DriverOperationError', text: 'Inspection callback {url} refused the data: HTTP {status} {body}' },
  inspectionCallbackFailed: { code: 'DriverOperationError', text: 'Inspection callback {url} failed after {attempts} attempt(s) in {seconds} s: {reason}' },

  // agent/api/server.ts: HTTP refusals (werkzeug's "<status> <reason>: <text>")
  agentBodyTooLarge: { code: 'BodyTooLarge', text: 'the body is larger than {limit} bytes' },
  agentBodyNotJson: { code: 'MalformedBody', text: 'The body is not JSON: {reason}' },
  agentCommandBodyInvalid: { code: 'InvalidParameterValue', text: 'Missing or invalid name or params' },
  agentApiTokenInvalid: { code: 'NotAuthorized', text: 'Token invalid.' },
  agentMethodNotAllowed: { code: 'MethodNotAllowed', text: 'The method is not allowed for the requested URL.' },

  // agent/api/command-registry.ts (InvalidCommandError, RequestedObjectNotFoundError, AgentIsBusy)
  agentCommandNameInvalid: { code: 'InvalidParameterValue', text: 'Command name must be of the form <extension>.<name>' },
  agentCommandUnknown: { code: 'InvalidParameterValue', text: 'Unknown command: {command}' },
  agentExtensionNotFound: { code: 'NotFound', text: 'Extension with id {id} not found.' },
  agentCommandResultNotFound: { code: 'NotFound', text: 'Command Result with id {id} not found.' },
  agentCommandRunning: { code: 'InvalidState', text: 'executing command {command}' },

  // agent/extensions/clean.ts, deploy.ts (InvalidCommandParamsError, CleaningError, DeploymentError,
  // CleanVersionMismatch / VersionMismatch; {kind} is "clean" or "deploy")
  cleanStepNotDict: { code: 'InvalidParameterValue', text: 'Malformed clean_step: "step" must be a dict.' },
  cleanStepNameMissing: { code: 'DriverOperationError', text: 'Malformed clean_step, no "step" key: {step}' },
  cleanStepFailed: { code: 'DriverOperationError', text: 'Error performing clean_step {step}: {reason}' },
  deployStepNotDict: { code: 'InvalidParameterValue', text: 'Malformed deploy_step: "step" must be a dict.' },
  deployStepNameMissing: { code: 'DriverOperationError', text: 'Malformed deploy_step, no "step" key: {step}' },
  deployStepFailed: { code: 'DriverOperationError', text: 'Unexpected exception performing deploy step {step}. {reason}' },
  agentVersionMismatch: { code: 'InvalidState', text: 'Agent {kind} version: {agent}, node {kind} version: {node}' },

  // agent/extensions/steps.ts (BlockDeviceEraseError; {step} is the erase step)
  eraseFailed: { code: 'DriverOperationError', text: '{step} failed on {failures}' },

  // agent/deploy-host.ts (DeviceNotFound, SystemRebootError)
  rootDiskNoHintMatch: { code: 'NotFound', text: 'No disk matches the root device hints {hints}; disks: {disks}' },
  rootDiskNoneLargeEnough: { code: 'NotFound', text: 'No disk of at least 4 GiB found; disks: {disks}' },
  powerCommandFailed: { code: 'DriverOperationError', text: '{tool} failed ({reason}) and /proc/sysrq-trigger could not be written: {error}' },

  // agent/disk/image-checksum.ts (InvalidCommandParamsError; IPA's `_validate_image_info` wordings)
  imageFieldMissing: { code: 'InvalidParameterValue', text: 'Image is missing \'{field}\' field.' },
  imageUrlsInvalid: { code: 'InvalidParameterValue', text: 'Image \'urls\' must be a list with at least one element.' },
  imageFieldNotString: { code: 'InvalidParameterValue', text: 'Image \'{field}\' must be a non-empty string.' },
  agentImageChecksumMissing: { code: 'InvalidParameterValue', text: 'Image checksum is not available, either the \'checksum\' field or the \'os_hash_algo\' and \'os_hash_value\' fields pair must be set for image verification.' },
  imageChecksumUnverifiable: { code: 'InvalidParameterValue', text: 'Unable to verify image {image} with available checksums. Please make sure the specified \'os_hash_algo\' (currently {algo}) is supported by this ramdisk, or provide a md5 checksum via the \'checksum\' field' },
  imageMd5Refused: { code: 'InvalidParameterValue', text: 'Image {image} can only be verified with MD5, which the conductor does not allow (agent_md5_checksum_enable is false); give os_hash_algo sha256 or sha512.' },

  // agent/extensions/standby.ts, disk/image-writer.ts (InvalidCommandParamsError, ImageDownloadError,
  // ImageChecksumError, ImageWriteError, InstanceDeployFailure)
  imagePartitionImage: { code: 'InvalidParameterValue', text: 'Image {image} is a partition image; this agent writes whole-disk images only.' },
  imageNotRaw: { code: 'InvalidParameterValue', text: 'Image {image} has disk_format {format}; this agent writes raw images only: have the conductor convert it to raw (force_raw_images).' },
  imageDownloadFailed: { code: 'DriverOperationError', text: 'Download of image {image} failed: {reason}' },
  checksumFileDownloadFailed: { code: 'DriverOperationError', text: 'Download of image {image} failed: checksum file {url}: {reason}' },
  configDriveDownloadFailed: { code: 'DriverOperationError', text: 'Download of image {image} failed: config drive {url}: {reason}' },
  imageChecksumMismatch: { code: 'DriverOperationError', text: 'Image failed to verify against checksum. location: {location}; image ID: {image}; image checksum: {expected}; verification checksum: {actual}' },
  imageIsQcow2: { code: 'DriverOperationError', text: 'Image {image} from {url} is a qcow2 image, not raw (disk_format {format}); this agent writes raw images only: have the conductor convert it to raw.' },
  imageLargerThanDisk: { code: 'DriverOperationError', text: 'Image {image} from {url} is larger than the disk {disk} of {size} bytes: the download passed the end of the disk.' },
  imageDeclaredLargerThanDisk: { code: 'DriverOperationError', text: 'Image {image} is {bytes} bytes (Content-Length of {url}), larger than the disk {disk} of {size} bytes; nothing was written.' },
  imageWriteFailed: { code: 'DriverOperationError', text: 'Writing image {image} to {disk} failed: {reason}' },
  simulatedDiskNoFile: { code: 'DriverOperationError', text: 'Disk {disk} has no backing file on this simulated machine (ipa-simulated-disk); it cannot be written.' },
  configDriveFailed: { code: 'DriverOperationError', text: 'Failed to create config drive on disk {disk}. Error: {reason}' },
} as const satisfies MessageTable;
