/**
 * The agent's command protocol, shared by the agent and the conductor's agent client: command names,
 * their parameters and the result objects the agent's REST API answers with, as ironic-python-agent
 * speaks them (`ipa:ironic_python_agent/extensions/base.py`, `standby.py`, `clean.py`, `deploy.py`,
 * `log.py`; `ironic:drivers/modules/agent_client.py`).
 *
 * Commands are posted as `POST /v1/commands/?wait=<bool>&agent_token=<token>` with a body
 * `{"name": "<extension>.<command>", "params": {…}}`; the answer is an {@link AgentCommandResult}.
 * Synchronous commands answer finished; asynchronous ones answer `RUNNING` and are polled with
 * `GET /v1/commands/` (or `GET /v1/commands/{id}?wait=true`). Only one asynchronous command runs at a
 * time: a new command while it runs is refused with HTTP 409 ("Agent is busy").
 */
import type { Static } from 'typebox';
import * as Type from 'typebox/type';
import { jsonObject } from '../schema-kit.js';

/** The agent's default port (`ipa-listen-port`). */
export const AGENT_DEFAULT_PORT = 9999;

/** Status of a command (`extensions/base.py` `AgentCommandStatus`). */
export type AgentCommandStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CLEAN_VERSION_MISMATCH';

/**
 * An error as the agent serializes it into `command_error` (`errors.py` `RESTError.serialize`):
 * the error class name, its HTTP-like code, a fixed message and the details.
 */
export interface AgentCommandError {
  /** e.g. `ImageDownloadError`, `ImageChecksumError`, `CommandExecutionError`. */
  type: string;
  code: number;
  /** The error class's fixed text, e.g. "Error downloading image". */
  message: string;
  /** What happened, for the operator. */
  details: string;
}

/**
 * One command's state and outcome (`BaseCommandResult`). `command_name` is the command without its
 * extension (`prepare_image`), which is what Ironic matches when it polls for the last command.
 */
export interface AgentCommandResult<R = unknown> {
  id: string;
  command_name: string;
  command_status: AgentCommandStatus;
  command_error: AgentCommandError | null;
  command_result: R | null;
}

/** `GET /v1/commands/` answer. */
export interface AgentCommandList {
  commands: AgentCommandResult[];
}

/** `GET /v1/status` answer: start time (seconds since the epoch, fractional) and agent version. */
export interface AgentStatus {
  started_at: number | null;
  version: string;
}

/**
 * The body of `POST /v1/commands/`: the command's wire name and its parameters (IPA's `api_run_command`
 * refuses anything else with 400 "Missing or invalid name or params"); other keys are ignored.
 */
export const AgentCommandBody = Type.Object({ name: Type.String(), params: jsonObject() });
export type AgentCommandRequest = Static<typeof AgentCommandBody>;

/**
 * The error body of the agent's API for non-2xx answers (WSME style, `api/app.py` `format_exception`).
 * Ironic reads `faultstring`; a 409 (or "agent is busy" in it) means another command is running.
 */
export interface AgentFault {
  faultcode: 'Client' | 'Server';
  faultstring: string;
}

/** The image to write (`image_info` of `standby.prepare_image`, built by Ironic's `agent.py`). */
export interface ImageInfo {
  id: string;
  /** Tried in order until one answers 200. */
  urls: string[];
  /** Legacy MD5 checksum (or a URL of a checksum file); used when `os_hash_algo` is absent. */
  checksum?: string | null;
  /** `sha256`, `sha512`, `md5`… */
  os_hash_algo?: string | null;
  /** Hex digest, or a URL of a checksum file. */
  os_hash_value?: string | null;
  /** `raw` is written as is; any other format is refused (the conductor converts to raw). */
  disk_format?: string | null;
  container_format?: string | null;
  /** `whole-disk` (default) or `partition`. */
  image_type?: string | null;
  stream_raw_images?: boolean;
  node_uuid?: string;
  /** Older Ironic sends the config drive inside image_info. */
  configdrive?: string | null;
  root_mb?: number;
  swap_mb?: number;
  ephemeral_mb?: number;
  proxies?: Record<string, string>;
  no_proxy?: string;
  image_server_auth_strategy?: string;
  image_server_user?: string;
  image_server_password?: string;
  [key: string]: unknown;
}

/** `standby.prepare_image` params. `configdrive`: gzip+base64 of the ISO, or a URL to fetch it from. */
export interface PrepareImageParams {
  image_info: ImageInfo;
  configdrive?: string | null;
}

/** `standby.get_partition_uuids` result: `root uuid` (the disk identifier for whole-disk images). */
export type PartitionUuids = Record<string, string | null | Record<string, string | null>>;

/** A clean or deploy step as the agent reports it (`hardware.py` `get_clean_steps` / `get_deploy_steps`). */
export interface AgentStep {
  step: string;
  priority: number;
  interface: string;
  reboot_requested: boolean;
  abortable?: boolean;
  argsinfo?: Record<string, { description: string; required: boolean }>;
  /** Present in steps sent back for execution. */
  args?: Record<string, unknown>;
  [key: string]: unknown;
}

/** Hardware manager name → version; compared by `execute_clean_step` / `execute_deploy_step`. */
export type HardwareManagerVersions = Record<string, string>;

/** The node (as lookup returned it) and ports, passed to every step command. */
export interface StepContextParams {
  node: Record<string, unknown>;
  ports: Record<string, unknown>[];
}

/** `clean.get_clean_steps` result. */
export interface GetCleanStepsResult {
  clean_steps: Record<string, AgentStep[]>;
  hardware_manager_version: HardwareManagerVersions;
}

/** `clean.execute_clean_step` params. */
export interface ExecuteCleanStepParams extends StepContextParams {
  step: AgentStep;
  clean_version?: HardwareManagerVersions | null;
}

/** `clean.execute_clean_step` result. */
export interface ExecuteCleanStepResult {
  clean_result: unknown;
  clean_step: AgentStep;
}

/** `deploy.get_deploy_steps` result. */
export interface GetDeployStepsResult {
  deploy_steps: Record<string, AgentStep[]>;
  hardware_manager_version: HardwareManagerVersions;
}

/** `deploy.execute_deploy_step` params; `step.args` (e.g. `image_info`, `configdrive`) go to the step. */
export interface ExecuteDeployStepParams extends StepContextParams {
  step: AgentStep;
  deploy_version?: HardwareManagerVersions | null;
}

/** `deploy.execute_deploy_step` result. */
export interface ExecuteDeployStepResult {
  deploy_result: unknown;
  deploy_step: AgentStep;
}

/** `log.collect_system_logs` result: base64 of a gzipped tar of the ramdisk's logs. */
export interface CollectSystemLogsResult {
  system_logs: string;
}

/** The commands this agent implements, by their wire names. */
export const AGENT_COMMANDS = {
  prepareImage: 'standby.prepare_image',
  powerOff: 'standby.power_off',
  runImage: 'standby.run_image',
  sync: 'standby.sync',
  getPartitionUuids: 'standby.get_partition_uuids',
  getCleanSteps: 'clean.get_clean_steps',
  executeCleanStep: 'clean.execute_clean_step',
  getDeploySteps: 'deploy.get_deploy_steps',
  executeDeployStep: 'deploy.execute_deploy_step',
  collectSystemLogs: 'log.collect_system_logs',
} as const;

export type AgentCommandName = (typeof AGENT_COMMANDS)[keyof typeof AGENT_COMMANDS];

/** Clean steps of the generic hardware manager and their default priorities (`hardware.py`). */
export const CLEAN_STEP_PRIORITIES = {
  /** Wipes partition tables and signatures at both ends of every disk. */
  erase_devices_metadata: 99,
  /**
   * Overwrites every disk. NOTE: IPA's generic manager reports priority 10 (so Ironic erases whole
   * disks in automated cleaning unless `[deploy]erase_devices_priority` overrides it, which is the
   * usual operator setting); the agent reports what IPA reports and leaves the choice to the conductor.
   */
  erase_devices: 10,
} as const;
