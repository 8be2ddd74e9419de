/** The error messages raised in `src/conductor/` (see `index.ts` for how a message reads and is raised). */
import type { MessageTable } from './table.js';

export const CONDUCTOR_MESSAGES = {
  // conductor/agent-callbacks.ts (lookup and heartbeat of the ramdisk agent)
  agentLookupNoNode: { code: 'NodeNotFound', text: 'Node with addresses {macs} could not be found.' },
  agentTokenInvalid: { code: 'InvalidParameterValue', text: 'Invalid or missing agent token received for node {node}.' },
  agentCallbackUrlChanged: { code: 'InvalidParameterValue', text: 'Detected change in ramdisk provided "callback_url".' },

  // conductor/agent-image.ts ({format} is the image's disk format, or "non-raw")
  imageNeedsHttpServer: {
    code: 'ConfigInvalid',
    text: 'The image {source} of node {node} must be served to the agent by Ingot (a file:// or {format} image, or images.download_source = local), which needs the HTTP boot server: set [boot] http_enabled and http_url.',
  },
  imagePrepareFailed: { code: 'DriverOperationError', text: 'Could not prepare the image {source} of node {node}: {reason}' },
  configDriveUnusable: { code: 'InvalidParameterValue', text: 'The config drive of node {node} cannot be used: {reason}' },

  // conductor/console-log.ts ({file} is driver_info console_log_file)
  consoleLogDisabled: { code: 'InvalidParameterValue', text: 'console log {file} is not read: conductor.console_log_allowed_paths is empty.' },
  consoleLogOutsideAllowed: { code: 'InvalidParameterValue', text: 'console log {file} is refused: {path} is outside conductor.console_log_allowed_paths ({allowed}).' },
  consoleLogNotRegular: { code: 'InvalidParameterValue', text: 'console log {file} is refused: it is not a regular file.' },
  consoleLogUnreadable: { code: 'InvalidParameterValue', text: 'console log {file} cannot be read: {reason}' },

  // conductor/discovery.ts
  discoveredBmcTaken: {
    code: 'InspectionLookupFailed',
    text: 'The machine with BMC address {address} belongs to node {node}, which is not being inspected (provision state {state}); start its inspection instead.',
  },
  discoveredMacTaken: { code: 'InspectionLookupFailed', text: 'The machine\'s MAC {mac} belongs to node {node}, which is not being inspected; start its inspection instead.' },
  discoveryDriverNotEnabled: {
    code: 'ConfigInvalid',
    text: 'inspector.auto_discovery.driver: hardware type "{driver}" is not enabled (conductor.enabled_hardware_types: {enabled}).',
  },

  // conductor/inspection-lookup.ts and flows/inspection.ts ({keys} lists "MAC <mac>" entries, {macs} and {bmcs} are lists or "(none)")
  nodeNotInspecting: { code: 'InvalidState', text: 'Node {node} is not being inspected (provision state {state}); start an inspection first.' },
  inspectionNamesOtherNode: { code: 'InspectionLookupAmbiguous', text: 'The inspection data names node {node}, but its {keys} belong to another node.' },
  inspectionMatchesNodes: { code: 'InspectionLookupAmbiguous', text: 'The inspection data matches {count} nodes: {nodes}. Fix the ports so that one node matches.' },
  inspectionMacAndBmcDisagree: {
    code: 'InspectionLookupAmbiguous',
    text: 'The inspection data matches 2 nodes: {node} ({keys}); {other} (BMC address {bmc}). Fix the ports or BMC addresses so that one node matches.',
  },
  inspectionBmcShared: {
    code: 'InspectionLookupAmbiguous',
    text: 'The BMC address of the inspection data belongs to {count} nodes being inspected ({nodes}) and no MAC is known (MACs {macs}; BMC addresses {bmcs}). Create the node\'s ports first.',
  },
  inspectionNoMatch: { code: 'InspectionLookupFailed', text: 'No node being inspected matches the inspection data (MACs {macs}; BMC addresses {bmcs}).' },

  // conductor/json-transport.ts (the conductor contract as JSON-RPC)
  conductorCallTooManyArgs: { code: 'Internal', text: 'The conductor call {method} takes {count} arguments, not {given}.' },
  conductorCallNotSerialisable: { code: 'Internal', text: 'The conductor call {method} cannot be sent as JSON: {problem}.' },
  conductorAnswerNotSerialisable: { code: 'Internal', text: 'The answer of the conductor call {method} cannot be sent as JSON: {problem}.' },
  conductorRequestNotJson: { code: 'Internal', text: 'The conductor call is not JSON.' },
  conductorRequestNotRpc: { code: 'Internal', text: 'The conductor call is not a JSON-RPC 2.0 request with named params.' },
  conductorContextInvalid: { code: 'Internal', text: 'The request context of the conductor call is not an object of request_id, roles and is_admin, with user, project, domain and system_scope if known.' },
  conductorMethodUnknown: { code: 'Internal', text: 'The conductor has no call {method}.' },
  conductorParamsUnknown: { code: 'Internal', text: 'The conductor call {method} takes no parameter {params}.' },

  // conductor/local-client.ts ({valid} is the list of states as Ironic prints it, a Python tuple)
  nodeCreateState: { code: 'InvalidParameterValue', text: 'A node can only be created in state enroll or available, not "{state}".' },
  nodeDeleteState: {
    code: 'InvalidState',
    text: 'Can not delete node "{node}" while it is in provision state "{state}". Valid provision states to perform deletion are: "{valid}", or set the node into maintenance mode',
  },

  // conductor/traits.ts and local-client.ts
  traitsTooMany: { code: 'InvalidParameterValue', text: 'Could not set traits for node {node}: at most {max} traits are allowed, got {count}.' },
  traitLimitReached: { code: 'InvalidParameterValue', text: 'Could not add trait {trait} to node {node}: it already has the maximum of {max} traits.' },

  // conductor/node-update.ts ({field} of reasonWithoutFlag is maintenance_reason, protected_reason or retired_reason)
  nodeFieldReadOnly: { code: 'InvalidParameterValue', text: 'The node field "{field}" cannot be updated directly.' },
  nodeInTransition: { code: 'InvalidState', text: 'Node {node} can not be updated while a state transition is in progress.' },
  nodeInterfaceUpdateState: {
    code: 'InvalidState',
    text: 'Node {node} can not have {field} updated unless it is in one of allowed ({states}) states or in maintenance mode.',
  },
  nodeProtectState: { code: 'InvalidState', text: 'Node {node} can only be made protected in provision states "active" and "rescue", the current state is "{state}".' },
  nodeRetireState: {
    code: 'InvalidState',
    text: 'Node {node} can not have "retired" set in provision state "available", the current state is "{state}". Move it to manageable first.',
  },
  reasonWithoutFlag: { code: 'InvalidParameterValue', text: 'Cannot set {field} on node {node} without setting {flag} to true.' },

  // conductor/port-ops.ts ({states} lists the states in which connectivity may change)
  portgroupOfOtherNode: { code: 'InvalidParameterValue', text: 'Port can not be added to a portgroup belonging to a different node.' },
  portAddressLocked: { code: 'InvalidState', text: 'Cannot update hardware address for port {port} as node {node} is active or has instance UUID assigned' },
  portConnectivityLocked: {
    code: 'InvalidState',
    text: 'Port {port} can not have any connectivity attributes ({fields}) updated unless node {node} is in a {states} state or in maintenance mode. The current state is {state}.',
  },
  portBoundToVif: { code: 'InvalidState', text: 'Cannot delete the port {port} as it is bound to VIF {vif} for {use} use.' },
  portgroupMoveState: {
    code: 'InvalidState',
    text: 'Portgroup {portgroup} can not be associated to node {node} unless the node is in a {states} state or in maintenance mode.',
  },
  portgroupMoveHasPorts: {
    code: 'PortgroupNotEmpty',
    text: 'Portgroup {portgroup} can not be associated with node {node} because there are ports associated with this portgroup.',
  },

  // conductor/task.ts
  nodeNotReservedBy: { code: 'NodeLocked', text: 'Node {node} is not reserved by conductor {host}.' },
  sharedTaskWrite: { code: 'Internal', text: 'node {node}: a shared task cannot change the node.' },

  // conductor/workers.ts
  conductorShuttingDown: { code: 'ConductorUnavailable', text: 'The conductor {host} is shutting down and accepts no new work.' },
  noFreeWorkers: { code: 'NoFreeConductorWorkers', text: 'Requested action cannot be performed due to lack of free conductor workers.' },
  workerSlotReused: { code: 'Internal', text: 'worker slot {name} started twice' },

  // conductor/periodics/inspector-status.ts
  inspectionPowerOffFailed: { code: 'PowerStateFailure', text: 'Inspection clean up failed: unable to power off the node: {reason}' },

  // conductor/flows/management.ts ({setting} is "boot mode" or "secure boot state", {operation} "attach" or "detach")
  bootSettingWhileTransitioning: {
    code: 'InvalidState',
    text: 'Node {node} is in {state} state. Since the node is transitioning, the {setting} will not be set as this may interfere with ongoing changes. Try again later.',
  },
  nmiFailed: { code: 'DriverOperationError', text: 'Failed to inject an NMI into node {node}: {reason}' },
  bootModeNotSupported: {
    code: 'InvalidParameterValue',
    text: 'Boot mode {mode} is not supported by the management interface "{iface}" of node {node}. Supported: {supported}.',
  },
  vmediaReadFailed: { code: 'DriverOperationError', text: 'Failed to get the virtual media of node {node}: {reason}' },
  vmediaPowerFailure: { code: 'NodeInMaintenance', text: 'Unable to {operation} virtual media for node {node} due to power failure state' },
  vmediaSwiftUnsupported: {
    code: 'InvalidParameterValue',
    text: 'image_download_source swift needs an Object Storage (Swift) service, which Ingot does not use; use http',
  },

  // conductor/flows/power.ts (the disable_power_off refusal is domain.ts's powerOffRefused)
  powerStateNotSupported: {
    code: 'InvalidParameterValue',
    text: 'The requested power state "{state}" is not supported by the power interface "{iface}" of node {node}. Supported: {supported}.',
  },

  // conductor/flows/provision.ts ({what} names what was validated: "deploy or power info", "power and inspect interfaces", …)
  validationFailed: { code: 'InvalidParameterValue', text: 'Failed to validate {what} for node {node}. Errors: {errors}' },
  requiredForTarget: { code: 'InvalidParameterValue', text: '"{field}" is required when setting target provision state to {target}' },

  // conductor/flows/steps.ts ({kind} is deploy, clean, service; {step} is "<interface>.<step>")
  stepNotSupported: { code: 'InvalidParameterValue', text: 'Node {node}: {kind} step "{step}" is not supported by the {iface} interface "{impl}".' },
  stepNotInDriver: { code: 'InvalidParameterValue', text: '{kind} step "{step}" is not supported by the node\'s driver.' },
} as const satisfies MessageTable;
