/**
 * The agent's errors, in the shape ironic-python-agent gives them (`errors.py` `RESTError`): a class
 * name (`type`), an HTTP-like `code`, a fixed `message` per class and the `details`. They travel in
 * `command_error` of a command result, and as `faultstring` ("message: details") when the API refuses a
 * request. A factory names the class; its caller names the details' message (`messages/agent.ts`) and
 * gives the values: `invalidCommand('agentCommandUnknown', { command })`.
 */
import type { AgentCommandError } from '../../protocol/agent/commands.js';
import { errorMessage, messageOf, type FailArgs, type MessageId } from '../../shared/errors.js';

/** An error the agent reports over its API. */
export class AgentRestError extends Error {
  constructor(
    readonly type: string,
    readonly code: number,
    readonly title: string,
    readonly details: string,
  ) {
    super(`${title}: ${details}`);
    this.name = type;
  }

  /** The `command_error` object. */
  serialize(): AgentCommandError {
    return { type: this.type, code: this.code, message: this.title, details: this.details };
  }
}

/** The factory of IPA error class `type`: its details are a message with the caller's values. */
function make(type: string, code: number, title: string) {
  return <M extends MessageId>(id: M, ...args: FailArgs<M>): AgentRestError => new AgentRestError(type, code, title, errorMessage(id, ...args).message);
}

/** The request body or a parameter is not acceptable (400). */
export const invalidContent = make('InvalidContentError', 400, 'Invalid request body');
/** Unknown command or malformed command name (400). */
export const invalidCommand = make('InvalidCommandError', 400, 'Invalid command');
/** Command parameters are missing or wrong (400). */
export const invalidCommandParams = make('InvalidCommandParamsError', 400, 'Invalid command parameters');
const COMMAND_EXECUTION = ['CommandExecutionError', 500, 'Command execution failed'] as const;
/** A command failed while running (500). */
export const commandExecutionError = make(...COMMAND_EXECUTION);
/** A clean step failed (500). */
export const cleaningError = make('CleaningError', 500, 'Clean step failed');
/** A deploy step failed (500). */
export const deploymentError = make('DeploymentError', 500, 'Deploy step failed');
/** Writing the image to the disk failed (500). */
export const imageWriteError = make('ImageWriteError', 500, 'Error writing image to device');
/** Erasing a disk failed (500). */
export const blockDeviceEraseError = make('BlockDeviceEraseError', 500, 'Error erasing block device');
/** No disk fits (404). */
export const deviceNotFound = make('DeviceNotFound', 404, 'Error finding the disk or partition device to deploy the image onto');
/** The config drive could not be written (500). */
export const configDriveError = make('InstanceDeployFailure', 500, 'Failed to create config drive');
/** Power off / reboot failed (500). */
export const systemRebootError = make('SystemRebootError', 500, 'Error rebooting system');

/** The image could not be downloaded (500). */
export const imageDownloadError = make('ImageDownloadError', 500, 'Error downloading image');
/** No such object (404): `Command Result with id X not found.` */
export const notFound = make('RequestedObjectNotFoundError', 404, 'Not found');

/** The image's checksum does not match (500). */
export function imageChecksumError(image: string, location: string, expected: string, actual: string): AgentRestError {
  const details = errorMessage('imageChecksumMismatch', { image, location, expected, actual }).message;
  return new AgentRestError('ImageChecksumError', 500, 'Error verifying image checksum', details);
}

/** Another asynchronous command is still running (409); Ironic retries later on 409. */
export function agentIsBusy(command: string): AgentRestError {
  return new AgentRestError('AgentIsBusy', 409, 'Agent is busy', errorMessage('agentCommandRunning', { command }).message);
}

/** The hardware manager versions changed since the conductor asked for steps (409). */
export function versionMismatch(kind: 'clean' | 'deploy', agent: unknown, node: unknown): AgentRestError {
  const type = kind === 'clean' ? 'CleanVersionMismatch' : 'VersionMismatch';
  const title = kind === 'clean' ? 'Clean version mismatch, reload agent with correct version' : 'Version mismatch, reload agent with correct version';
  return new AgentRestError(type, 409, title, errorMessage('agentVersionMismatch', { kind, agent: JSON.stringify(agent), node: JSON.stringify(node) }).message);
}

/** Anything thrown, as an agent error (unknown errors become CommandExecutionError, as IPA does). */
export function toAgentError(err: unknown): AgentRestError {
  // The details are the error's own message, as IPA's `str(e)`.
  return err instanceof AgentRestError ? err : new AgentRestError(...COMMAND_EXECUTION, messageOf(err));
}
