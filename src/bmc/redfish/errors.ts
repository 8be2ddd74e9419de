/**
 * Redfish's error envelope (DSP0266 §9.6 "Error responses"): one `error` object whose `code` and
 * `message` summarise the failure and whose `@Message.ExtendedInfo` lists Base registry messages, each
 * naming the offending properties in `RelatedProperties` as JSON pointers (`#/Boot/BootSourceOverrideTarget`).
 */

/** The Base message registry version the emulator quotes in message ids. */
export const BASE_REGISTRY = 'Base.1.8';

/** One `@Message.ExtendedInfo` entry. */
export interface RedfishMessage {
  '@odata.type': string;
  MessageId: string;
  Message: string;
  MessageArgs: string[];
  RelatedProperties: string[];
  Severity: 'OK' | 'Warning' | 'Critical';
  MessageSeverity: 'OK' | 'Warning' | 'Critical';
  Resolution: string;
}

/** An HTTP failure rendered as a Redfish error body by the emulator's error handler. */
export class RedfishError extends Error {
  constructor(
    readonly status: number,
    /** Message id within the Base registry, e.g. `PropertyValueNotInList`. */
    readonly messageId: string,
    message: string,
    readonly args: string[] = [],
    readonly related: string[] = [],
    readonly resolution = 'None.',
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'RedfishError';
  }
}

/** A Base registry message as it appears in `@Message.ExtendedInfo` (and in a Task's `Messages`). */
export function baseMessage(messageId: string, message: string, args: string[] = [], related: string[] = [], severity: RedfishMessage['Severity'] = 'Critical', resolution = 'None.'): RedfishMessage {
  return {
    '@odata.type': '#Message.v1_1_1.Message',
    MessageId: `${BASE_REGISTRY}.${messageId}`,
    Message: message,
    MessageArgs: args,
    RelatedProperties: related,
    Severity: severity,
    MessageSeverity: severity,
    Resolution: resolution,
  };
}

/** The body of an error answer. */
export function redfishErrorBody(err: RedfishError): { error: Record<string, unknown> } {
  return {
    error: {
      code: `${BASE_REGISTRY}.GeneralError`,
      message: 'A general error has occurred. See ExtendedInfo for more information.',
      '@Message.ExtendedInfo': [baseMessage(err.messageId, err.message, err.args, err.related, 'Critical', err.resolution)],
    },
  };
}

/** 401: no or bad credentials (also what a machine with `reject_credentials` answers). */
export function unauthorized(): RedfishError {
  return new RedfishError(401, 'NoValidSession', 'There is no valid session established with the implementation.', [], [], 'Establish a session before attempting any operations.', {
    'www-authenticate': 'Basic realm="Redfish"',
  });
}

/** 404 for a URI that does not exist, or that the caller may not see. */
export function notFound(uri: string): RedfishError {
  return new RedfishError(404, 'ResourceMissingAtURI', `The resource at the URI ${uri} was not found.`, [uri], [], 'Place a valid resource at the URI or correct the URI and resubmit the request.');
}

/** 400: a property of the request body has a value outside its allowed list. */
export function valueNotInList(property: string, value: unknown, pointer: string): RedfishError {
  const shown = typeof value === 'string' ? value : JSON.stringify(value);
  return new RedfishError(400, 'PropertyValueNotInList', `The value ${shown} for the property ${property} is not in the list of acceptable values.`, [shown, property], [pointer], 'Choose a value from the enumeration list that the implementation can support and resubmit the request if the operation failed.');
}

/** 400: a property of the request body has the wrong JSON type. */
export function valueTypeError(property: string, value: unknown, pointer: string): RedfishError {
  const shown = JSON.stringify(value) ?? 'undefined';
  return new RedfishError(400, 'PropertyValueTypeError', `The value ${shown} for the property ${property} is of a different type than the property can accept.`, [shown, property], [pointer], 'Correct the value for the property in the request body and resubmit the request if the operation failed.');
}

/** 400: the request body names a property the resource does not have (or that is read-only). */
export function propertyUnknown(property: string, pointer: string): RedfishError {
  return new RedfishError(400, 'PropertyUnknown', `The property ${property} is not in the list of valid properties for the resource.`, [property], [pointer], 'Remove the unknown property from the request body and resubmit the request if the operation failed.');
}

/** 400: an action was posted without a required parameter. */
export function actionParameterMissing(action: string, parameter: string): RedfishError {
  return new RedfishError(400, 'ActionParameterMissing', `The action ${action} requires the parameter ${parameter} to be present in the request body.`, [action, parameter], [`#/${parameter}`], 'Supply the action with the required parameter in the request body when the request is resubmitted.');
}

/** 400: an action parameter has a value outside its allowed list. */
export function actionValueNotInList(action: string, parameter: string, value: unknown): RedfishError {
  const shown = typeof value === 'string' ? value : JSON.stringify(value);
  return new RedfishError(400, 'ActionParameterValueNotInList', `The value ${shown} for the parameter ${parameter} in the action ${action} is not in the list of acceptable values.`, [shown, parameter, action], [`#/${parameter}`], 'Choose a value from the enumeration list that the implementation can support and resubmit the request if the operation failed.');
}

/** 400: the body is not a JSON object. */
export function malformedJson(): RedfishError {
  return new RedfishError(400, 'MalformedJSON', 'The request body submitted was malformed JSON and could not be parsed by the receiving service.', [], [], 'Ensure that the request body is valid JSON and resubmit the request.');
}

/** 412: `If-Match` names an ETag the resource no longer has. */
export function preconditionFailed(uri: string): RedfishError {
  return new RedfishError(412, 'PreconditionFailed', `The ETag supplied did not match the ETag required to change this resource (${uri}).`, [], [], 'Try the operation again using the appropriate ETag.');
}

/** 500: what a machine with `error_rate` answers, and any unexpected failure. */
export function internalError(detail = 'The request failed due to an internal service error.'): RedfishError {
  return new RedfishError(500, 'InternalError', detail, [], [], 'Resubmit the request. If the problem persists, consider resetting the service.');
}
