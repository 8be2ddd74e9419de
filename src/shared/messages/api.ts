/**
 * The error messages raised in `src/api/` (see `index.ts` for how a message reads and is raised). Where
 * Ironic (or, for the legacy inspector API, ironic-inspector) answers the same mistake, the text is its
 * text: clients and the compatibility tests compare them.
 */
import type { MessageTable } from './table.js';

export const API_MESSAGES = {
  // api/microversion.ts
  versionHeaderInvalid: { code: 'NotAcceptable', text: 'Invalid value for X-OpenStack-Ironic-API-Version header: "{version}". Expected 1.Y or latest.' },
  versionMajorUnsupported: { code: 'NotAcceptable', text: 'Mutually exclusive versions requested. Version {version} requested but not supported by this service. The supported version range is: {range}.' },
  versionMinorUnsupported: { code: 'NotAcceptable', text: 'Version {version} was requested but the minor version is not supported by this service. The supported version range is: {range}.' },
  versionTooOldFor: { code: 'NotAcceptable', text: 'Request not acceptable. The minimal required API version should be {version} for {what}.' },
  resourceNotFound: { code: 'NotFound', text: 'The resource could not be found.' },

  // api/errors.ts (what fastify refuses before a route runs, and bugs)
  bodyTooLarge: { code: 'BodyTooLarge', text: 'Request body is too large (limit {limit} bytes).' },
  bodyEmpty: { code: 'MalformedBody', text: 'Malformed JSON body: the body is empty.' },
  bodyMalformed: { code: 'MalformedBody', text: 'Malformed JSON body: {reason}' },
  bodyLengthMismatch: { code: 'MalformedBody', text: 'Request body size did not match Content-Length.' },
  urlMalformed: { code: 'InvalidParameterValue', text: 'Invalid URL: a percent escape in the path is malformed (use %XX with two hexadecimal digits).' },
  urlParamTooLong: { code: 'InvalidParameterValue', text: 'Invalid URL: a path component is longer than {max} characters.' },

  // api/app.ts
  methodNotAllowed: { code: 'MethodNotAllowed', text: 'The method {method} is not allowed for this resource; allowed: {allowed}.' },

  // api/query.ts
  limitNotInteger: { code: 'InvalidParameterValue', text: 'Invalid limit "{limit}": expected a positive integer.' },
  limitNotPositive: { code: 'InvalidParameterValue', text: 'Limit must be positive' },
  detailNeedsVersion: { code: 'InvalidParameterValue', text: 'Invalid query parameter ?detail={detail} received.' },
  detailWithFields: { code: 'InvalidParameterValue', text: 'Can not specify ?detail=True and fields in the same request.' },
  fieldsUnknown: { code: 'InvalidParameterValue', text: 'Field(s) "{fields}" are not valid' },

  // api/validate.ts
  bodyNotObject: { code: 'InvalidParameterValue', text: 'Invalid input for {what}: expected a JSON object, got {actual}.' },
  bodyFieldUnknown: { code: 'InvalidParameterValue', text: "Invalid input for {what}: unknown field '{field}'. Additional properties are not allowed ('{field}' was unexpected)." },
  bodyFieldRequired: { code: 'InvalidParameterValue', text: "Invalid input for {what}: '{field}' is a required property." },
  fieldTypeInvalid: { code: 'InvalidParameterValue', text: 'Invalid input for field/attribute {field}. Value: {value}. Expected {expected}, got {actual}.' },
  fieldValueNotAllowed: { code: 'InvalidParameterValue', text: 'Invalid input for field/attribute {field}. Value: {value}. Value should be one of: {allowed}.' },
  fieldTooLong: { code: 'InvalidParameterValue', text: 'Invalid input for field/attribute {field}. Value is longer than {max} characters.' },

  // api/patch.ts
  patchNotArray: { code: 'PatchError', text: 'Invalid patch: expected a JSON array of operations, got {actual}.' },
  patchOpNotObject: { code: 'PatchError', text: 'Invalid patch: operation {index} is not a JSON object.' },
  patchOpUnknown: { code: 'PatchError', text: 'Invalid patch: operation {index} has op {op}; expected one of {ops}.' },
  patchPathInvalid: { code: 'PatchError', text: 'Invalid patch: operation {index} has path {path}; expected a JSON pointer such as /name or /driver_info/key.' },
  patchValueMissing: { code: 'PatchError', text: "Invalid patch: operation {index} ('{op}' on {path}): 'add' and 'replace' operations need a value." },
  patchInternalAttribute: { code: 'InvalidParameterValue', text: "'{path}' is an internal attribute and can not be updated" },
  patchMandatoryAttribute: { code: 'InvalidParameterValue', text: "'{path}' is a mandatory attribute and can not be removed" },
  patchPathNotAllowed: { code: 'InvalidParameterValue', text: 'Cannot patch {path}. Only the following can be updated: {allowed}' },
  patchAddAtRoot: { code: 'InvalidParameterValue', text: 'Adding a new attribute ({path}) to the root of the resource is not allowed' },
  patchPathPrototypeKey: { code: 'PatchError', text: 'Invalid patch: operation {index} has path {path}; "{key}" cannot be used as a key.' },
  patchNotApplicable: { code: 'PatchError', text: "Couldn't apply patch '{patch}'. Reason: {reason}" },

  // api/resolve.ts (also the UUIDs of URLs and query parameters in the routes)
  uuidExpected: { code: 'InvalidParameterValue', text: 'Expected UUID for {field}: {value}' },
  uuidOrNameExpected: { code: 'InvalidParameterValue', text: 'Expected UUID or name for {field}: {value}' },
  logicalNameOrUuidExpected: { code: 'InvalidParameterValue', text: 'Expected a logical name or UUID but received {name}.' },

  // api/node-input.ts, api/port-input.ts, api/serialize/ (fields by microversion)
  fieldNotAcceptable: { code: 'NotAcceptable', text: 'Field "{field}" is not acceptable at API version 1.{minor}; it needs 1.{min}.' },
  fieldNotAvailable: { code: 'NotAcceptable', text: 'Field "{field}" is not available at API version 1.{minor}; it needs 1.{min}.' },
  sortKeyNeedsVersion: { code: 'NotAcceptable', text: 'Sorting by "{field}" needs API version 1.{min}.' },

  // api/node-input.ts
  nodeNameInvalid: { code: 'InvalidParameterValue', text: "Cannot create node with invalid name '{name}'" },
  nodeRenameInvalid: { code: 'InvalidParameterValue', text: "Node {node}: Cannot change name to invalid name '{name}'" },
  conductorGroupInvalid: { code: 'InvalidParameterValue', text: 'Invalid conductor_group "{group}": use letters, digits, _, - and . only.' },

  // api/port-input.ts
  portNodeBothGiven: { code: 'InvalidParameterValue', text: "Invalid input for port: exactly one of 'node_uuid' and 'node_ident' is required, both were given." },
  portNodeNeitherGiven: { code: 'InvalidParameterValue', text: "Invalid input for port: exactly one of 'node_uuid' and 'node_ident' is required, neither was given." },
  localLinkNotObject: { code: 'InvalidParameterValue', text: "Schema error for local_link_connection: {value} is not of type 'object'" },
  localLinkInvalid: { code: 'InvalidParameterValue', text: 'Schema error for local_link_connection: {value} is not valid under any of the given schemas' },
  switchIdInvalid: { code: 'InvalidParameterValue', text: 'Expected a MAC address or OpenFlow datapath ID but received {switch_id}.' },
  smartNicLinkIncomplete: { code: 'InvalidParameterValue', text: 'Smart NIC port must have port_id and hostname in local_link_connection' },

  // api/provision-input.ts
  stepsInvalid: { code: 'InvalidParameterValue', text: 'Invalid {kind}_steps: {reason}' },
  onlyValidForTarget: { code: 'InvalidParameterValue', text: '"{field}" is only valid when setting target provision state to {targets}' },
  configdriveNotForTarget: { code: 'InvalidParameterValue', text: 'Adding a config drive is only supported when setting provision state to active, rebuild or deploy' },
  disableRamdiskNotForTarget: { code: 'InvalidParameterValue', text: '"disable_ramdisk" can only be used with the clean or service verbs' },
  runbooksNotSupported: { code: 'InvalidParameterValue', text: 'runbooks (API 1.92) are not supported by Ingot.' },
  rescuePasswordRequired: { code: 'InvalidParameterValue', text: 'A non-empty "rescue_password" is required when setting target provision state to rescue' },

  // api/routes/drivers.ts
  driverTypeInvalid: { code: 'InvalidParameterValue', text: 'Invalid driver type "{type}"; expected classic or dynamic.' },

  // api/routes/inspection-rules.ts
  inspectionRulesNeedVersion: { code: 'NotFound', text: 'The API version does not allow inspection rules' },
  sensitiveRuleUnset: { code: 'PatchError', text: 'Inspection rules cannot have the sensitive flag unset.' },

  // api/routes/node-management.ts
  bootDeviceInvalid: { code: 'InvalidParameterValue', text: 'Invalid boot device {device}, valid devices are {devices}.' },

  // api/routes/node-oob-management.ts
  endpointNeedsVersion: { code: 'NotFound', text: 'This endpoint is supported starting with the API version 1.{min}' },
  bootModeInvalid: { code: 'InvalidParameterValue', text: 'Invalid boot mode {mode} requested for node. Allowed boot modes are: {modes}' },
  secureBootInvalid: { code: 'InvalidParameterValue', text: 'Invalid secure_boot {value} requested for node. Allowed secure_boot states are: True, False' },

  // api/routes/node-states.ts
  powerTargetInvalid: { code: 'InvalidParameterValue', text: 'Invalid power state target "{target}"; expected one of {targets}.' },
  powerTimeoutNotPositive: { code: 'InvalidParameterValue', text: 'timeout has to be positive integer, got {timeout}.' },
  provisionVerbUnknown: { code: 'InvalidStateRequested', text: 'The requested action "{action}" could not be understood.' },

  // api/routes/node-vmedia.ts
  vmediaMissing: { code: 'MissingParameterValue', text: 'Missing argument: "vmedia"' },
  vmediaSchemaError: { code: 'InvalidParameterValue', text: 'Schema error for vmedia: {reason}' },
  vmediaUrlSchemeUnsupported: { code: 'InvalidParameterValue', text: 'Unsupported or missing URL scheme: {scheme}' },
  vmediaDeviceTypesInvalid: { code: 'InvalidParameterValue', text: 'Invalid device type(s) {invalid} (valid are {valid})' },

  // api/routes/nodes.ts
  provisionStateFilterInvalid: { code: 'InvalidParameterValue', text: 'Provision state "{state}" is not valid' },
  faultFilterInvalid: { code: 'InvalidParameterValue', text: 'Unrecognized fault "{fault}" is specified, allowed faults are {faults}' },

  // api/routes/portgroups.ts
  portNameInvalid: { code: 'InvalidParameterValue', text: "Cannot use invalid name '{name}' for a port." },
  portgroupNameInvalid: { code: 'InvalidParameterValue', text: "Cannot use invalid name '{name}' for a portgroup." },

  // api/routes/ports.ts
  portNodeFilterTwice: { code: 'InvalidParameterValue', text: 'Only one of node and node_uuid may be given.' },

  // api/routes/ramdisk.ts
  heartbeatFieldUnknown: { code: 'InvalidParameterValue', text: 'Field "{field}" not recognised.' },
  heartbeatFieldNewer: { code: 'InvalidParameterValue', text: 'Field "{field}" not recognised in this version.' },
  callbackUrlInvalid: { code: 'InvalidParameterValue', text: 'An issue with the supplied "callback_url" has been detected.' },
  agentTokenRequired: { code: 'InvalidParameterValue', text: 'Agent token is required for heartbeat processing.' },
  agentStatusInvalid: { code: 'InvalidParameterValue', text: 'Agent status is invalid. Valid states are {statuses}.' },
  lookupArgumentsMissing: { code: 'InvalidParameterValue', text: "At least one of 'addresses' and 'node_uuid' parameters is required" },
  agentRateLimited: { code: 'RateLimited', text: 'Too many requests from {address} to the agent endpoints (at most {max} a minute); retry in {seconds} s.' },
  lookupMacRequired: { code: 'InvalidParameterValue', text: "At least one valid MAC address is required in 'addresses': 'node_uuid' alone does not identify the agent's node." },

  // api/legacy-inspector/ (ironic-inspector's texts)
  inspectorVersionUnsupported: { code: 'NotAcceptable', text: 'Unsupported API version {version}, supported range is 1.{min} to 1.{max}' },
  inspectorMethodNotAllowed: { code: 'MethodNotAllowed', text: 'The method {method} is not allowed for the requested URL.' },
  inspectorNodeNotFound: { code: 'NodeNotFound', text: 'Node {node} was not found' },
  introspectionNotFound: { code: 'NotFound', text: 'Introspection for node {node} was not found' },
  introspectionNotRunning: { code: 'InvalidStateRequested', text: 'Node {node} is not being introspected (provision state {state})' },
  introspectionDataNotFound: { code: 'NotFound', text: 'Introspection data not found for node {node}' },
  unprocessedDataNotKept: {
    code: 'NotFound',
    text: 'Unprocessed introspection data is not kept for node {node}: Ingot stores only the processed data (GET /v1/introspection/{node}/data), so it can be neither returned nor reapplied',
  },
  inspectorUuidInvalid: { code: 'InvalidParameterValue', text: 'Invalid UUID value' },

  // api/auth/ (the texts of Ironic's HTTP basic auth middleware, ironic-lib auth_basic)
  authRequired: { code: 'Unauthorized', text: 'Authorization required' },
  authIncorrect: { code: 'Unauthorized', text: 'Incorrect username or password' },
  authHeaderUnparsable: { code: 'InvalidParameterValue', text: 'Could not parse Authorization header' },
  authTypeUnsupported: { code: 'InvalidParameterValue', text: 'Unsupported authorization type "{type}"' },
  authTokenUndecodable: { code: 'InvalidParameterValue', text: 'Could not decode authorization token' },
  htpasswdUnreadable: { code: 'ConfigInvalid', text: 'api.http_basic_auth_user_file: cannot read {path}: {reason}' },
  htpasswdLineInvalid: { code: 'ConfigInvalid', text: 'api.http_basic_auth_user_file {path} line {line}: expected "user:bcrypt-hash" (htpasswd -B)' },
  htpasswdNotBcrypt: {
    code: 'ConfigInvalid',
    text: 'api.http_basic_auth_user_file {path} line {line}: only bcrypt digested passwords are supported for {username} ($2y$, $2b$ or $2a$; create them with htpasswd -B)',
  },
  htpasswdUserTwice: { code: 'ConfigInvalid', text: 'api.http_basic_auth_user_file {path} line {line}: user {username} is already defined on line {first}' },
  authKeystoneNotImplemented: {
    code: 'ConfigInvalid',
    text: 'api.auth_strategy "keystone" is not implemented yet in this version of Ingot; use "http_basic" with api.http_basic_auth_user_file (an htpasswd -B file)',
  },
} as const satisfies MessageTable;
