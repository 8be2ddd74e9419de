/**
 * The one table of Ingot's error codes. Each code is stable (clients and docs refer to it; the API sends it
 * as `X-Ingot-Error-Code`), carries its HTTP status and says what to do. A code whose message has one
 * shape carries it here, as Ironic's exception classes carry their `_msg_fmt`; the messages of the codes
 * that cover many causes (InvalidParameterValue, DriverOperationError, …) are in `messages/`.
 * `docs/errors.md` documents every code (a test checks that). Imports nothing.
 */

/** What the table says of one code. */
export interface ErrorSpec {
  readonly status: number;
  /** The code's one message, `{name}` standing for a value (see `messages/index.ts`). */
  readonly message?: string;
  /** What the operator can do about it. */
  readonly hint: string;
}

export const ERRORS = {
  InvalidParameterValue: { status: 400, hint: 'Correct the request and send it again.' },
  MissingParameterValue: { status: 400, hint: 'Add the missing value and send the request again.' },
  InvalidStateRequested: { status: 400, message: 'The requested action "{action}" can not be performed on node "{node}" while it is in state "{state}".', hint: 'Check the node’s provision state; `GET /v1/nodes/{node}/states` shows the allowed next steps.' },
  InvalidState: { status: 409, hint: 'Wait for the node to reach a state that allows this, or move it there first.' },
  PatchError: { status: 400, hint: 'Fix the JSON Patch document (RFC 6902): op, path and value.' },
  MalformedBody: { status: 400, hint: 'Send a valid JSON document with Content-Type: application/json.' },
  BodyTooLarge: { status: 413, hint: 'Send a smaller body; the limit is set by api.max_body_bytes.' },
  RateLimited: { status: 429, hint: 'Send fewer requests from this address, or raise api.agent_rate_limit_per_minute; retry after the Retry-After seconds.' },
  Unauthorized: { status: 401, hint: 'Send the credentials of api.auth_strategy (with http_basic: OS_AUTH_TYPE=http_basic, OS_USERNAME, OS_PASSWORD).' },
  NotAuthorized: { status: 403, hint: 'Use credentials allowed to do this.' },
  NodeNotFound: { status: 404, message: 'Node {node} could not be found.', hint: 'Check the node UUID or name; `GET /v1/nodes` lists the nodes.' },
  PortNotFound: { status: 404, message: 'Port {port} could not be found.', hint: 'Check the port UUID or address.' },
  PortgroupNotFound: { status: 404, message: 'Portgroup {portgroup} could not be found.', hint: 'Check the port group UUID or name.' },
  ChassisNotFound: { status: 404, message: 'Chassis {chassis} could not be found.', hint: 'Check the chassis UUID.' },
  DriverNotFound: { status: 404, message: 'Could not find the following driver(s) or hardware type(s): {driver_name}.', hint: '`GET /v1/drivers` lists the drivers this deployment has enabled.' },
  ConductorNotFound: { status: 404, message: 'Conductor {conductor} could not be found.', hint: '`GET /v1/conductors` lists the conductors.' },
  HistoryNotFound: { status: 404, message: 'Node history record {history} could not be found.', hint: '`GET /v1/nodes/{node}/history` lists the node’s events.' },
  InspectionLookupFailed: { status: 404, hint: 'Enroll the machine with its BMC address and ports, and start its inspection (`baremetal node inspect`) before it boots the agent.' },
  InspectionLookupAmbiguous: { status: 409, hint: 'Two nodes claim this machine: remove the duplicate ports or BMC addresses.' },
  InventoryNotFound: { status: 404, message: 'Node inventory for node {node} could not be found.', hint: 'Inspect the node in band (`baremetal node inspect`) to record its inventory.' },
  InspectionRuleNotFound: { status: 404, message: 'Rule {rule} could not be found.', hint: '`GET /v1/inspection_rules` (or `/v1/rules` on the inspector API) lists the rules.' },
  InspectionRuleAlreadyExists: { status: 409, message: 'A rule with UUID {uuid} already exists.', hint: 'A rule with this UUID exists already; choose another UUID or update that rule.' },
  TraitNotFound: { status: 404, message: 'Node {node} doesn\'t have a trait {trait}', hint: '`GET /v1/nodes/{node}/traits` lists the node’s traits.' },
  NotFound: { status: 404, hint: 'Check the URL and the requested API version.' },
  MethodNotAllowed: { status: 405, hint: 'Use a method this resource supports.' },
  NotAcceptable: { status: 406, hint: 'Request an API version inside the advertised minimum and maximum.' },
  NodeLocked: { status: 409, message: 'Node {node} is locked by host {host}, please retry after the current operation is completed.', hint: 'Another operation holds the node; retry shortly.' },
  DuplicateName: { status: 409, message: 'A node with name {name} already exists.', hint: 'Choose another name; names are unique.' },
  MACAlreadyExists: { status: 409, message: 'A port with MAC address {mac} already exists.', hint: 'A port with this MAC address exists already; update or delete it first.' },
  NodeAlreadyExists: { status: 409, message: 'A node with UUID {uuid} already exists.', hint: 'A node with this UUID exists already.' },
  PortAlreadyExists: { status: 409, message: 'A port with UUID {uuid} already exists.', hint: 'A port with this UUID exists already.' },
  PortgroupAlreadyExists: { status: 409, message: 'A portgroup with UUID {uuid} already exists.', hint: 'A port group with this name or address exists already.' },
  ChassisAlreadyExists: { status: 409, message: 'A chassis with UUID {uuid} already exists.', hint: 'A chassis with this UUID exists already.' },
  InstanceAssociated: { status: 409, message: 'Instance {instance_uuid} is already associated with a node, it cannot be associated with this other node {node}', hint: 'The instance is associated with another node already; clear instance_uuid there first.' },
  NodeAssociated: { status: 409, message: 'Node {node} is associated with instance {instance}.', hint: 'Undeploy the node or clear instance_uuid first.' },
  NodeProtected: { status: 403, message: 'Node {node} is protected and cannot be undeployed, rebuilt or deleted', hint: 'Unset `protected` on the node first.' },
  ChassisNotEmpty: { status: 400, message: 'Cannot complete the requested action because chassis {chassis} contains nodes.', hint: 'Delete or move the chassis’ nodes first.' },
  PortgroupNotEmpty: { status: 400, message: 'Cannot complete the requested action because portgroup {portgroup} contains ports.', hint: 'Remove the ports from the port group first.' },
  NodeInMaintenance: { status: 400, message: 'The {op} operation can\'t be performed on node {node} because it\'s in maintenance mode.', hint: 'Take the node out of maintenance (`baremetal node maintenance unset`) first.' },
  UnsupportedDriverExtension: { status: 400, message: 'Driver {driver} does not support {extension} (disabled or not implemented).', hint: 'This node’s driver does not implement the interface; choose another interface implementation.' },
  InterfaceNotFoundInEntrypoint: { status: 400, hint: '`GET /v1/drivers/{driver}?detail=true` lists the enabled implementations.' },
  NoValidHost: { status: 400, message: 'No valid host was found. Reason: {reason}', hint: 'Enable the driver or start a conductor that has it.' },
  NoFreeConductorWorkers: { status: 503, hint: 'The conductor is at its worker limit; retry shortly or raise conductor.workers.' },
  ConductorUnavailable: { status: 503, hint: 'Start a conductor or wait for one to come back.' },
  PowerStateFailure: { status: 500, hint: 'Check the BMC address and credentials, then retry.' },
  DriverOperationError: { status: 500, hint: 'See the message; fix the cause at the hardware or driver level and retry.' },
  ConfigInvalid: { status: 500, hint: 'Fix the configuration value named in the message and start again.' },
  Internal: { status: 500, hint: 'This is a bug in Ingot; the server log has the details.' },
} as const satisfies Record<string, ErrorSpec>;

/** A stable error code from {@link ERRORS}. */
export type ErrorCode = keyof typeof ERRORS;
