/**
 * The ramdisk → Ironic side of the agent protocol: lookup and heartbeat as the agent sends them and as
 * the API answers them (`ironic:api/controllers/v1/ramdisk.py`, `ipa:ironic_python_agent/ironic_api_client.py`).
 *
 * - `GET /v1/lookup?addresses=<mac,mac>&node_uuid=<uuid>` → 200 {@link LookupResponse}.
 * - `POST /v1/heartbeat/{node_uuid}` with a {@link HeartbeatRequest} → 202; 409 while the node is locked.
 *
 * Both carry `X-OpenStack-Ironic-API-Version`: the agent asks for the highest version it knows and the
 * server offers (lookup at most {@link AGENT_TOKEN_API_VERSION}, heartbeat at most
 * {@link AGENT_MAX_KNOWN_API_VERSION}).
 */
import type { Static } from 'typebox';
import * as Type from 'typebox/type';
import { optionalString } from '../schema-kit.js';

/** The API version that added `agent_version` to heartbeats. */
export const AGENT_VERSION_API_VERSION: readonly [number, number] = [1, 36];
/** The API version that added `agent_token`. */
export const AGENT_TOKEN_API_VERSION: readonly [number, number] = [1, 62];
/** The API version that added `agent_verify_ca`; the highest version the agent asks for. */
export const AGENT_MAX_KNOWN_API_VERSION: readonly [number, number] = [1, 68];
/** What the agent assumes when the API root cannot be read. */
export const AGENT_MIN_API_VERSION: readonly [number, number] = [1, 31];

/** `config` of the lookup answer; unknown keys are kept (newer servers add settings). */
export interface LookupConfig {
  /** Seconds after which the conductor considers the agent gone (default 300). */
  heartbeat_timeout: number;
  /** The agent token the first time it is asked for, `******` afterwards; absent on old servers. */
  agent_token?: string | null;
  agent_token_required?: boolean;
  agent_md5_checksum_enable?: boolean;
  permitted_image_formats?: string[];
  disable_deep_image_inspection?: boolean;
  [key: string]: unknown;
}

/** The node fields the lookup hands to the agent. */
export interface LookupNode {
  uuid: string;
  properties: Record<string, unknown>;
  instance_info: Record<string, unknown>;
  driver_internal_info: Record<string, unknown>;
  [key: string]: unknown;
}

/** `GET /v1/lookup` answer. */
export interface LookupResponse {
  node: LookupNode;
  config: LookupConfig;
}

/**
 * `GET /v1/lookup` query (Ironic's `LookupController.get_all`): `addresses`, the machine's MACs comma
 * separated (those that are not MACs are skipped), and/or the node's UUID.
 */
export const LookupQuery = Type.Object({ addresses: Type.Optional(Type.String()), node_uuid: Type.Optional(Type.String()) });
export type LookupQuery = Static<typeof LookupQuery>;

/** What `agent_status` may say (Ironic's `AGENT_VALID_STATES`; the anaconda deploy reports it). */
export const AGENT_STATUSES = ['start', 'end', 'error'] as const;

/**
 * `POST /v1/heartbeat/{node}` body (the arguments of Ironic's `HeartbeatController.post`, each an
 * `args.string`). Which fields a version accepts, the URL's scheme, the token's presence and
 * `agent_status` against {@link AGENT_STATUSES} are checked by the API with Ironic's messages.
 */
export const HeartbeatBody = Type.Object(
  {
    /** Where the agent's API listens, e.g. `http://192.0.2.10:9999`. */
    callback_url: Type.String(),
    /** The token of the lookup (1.62); required. */
    agent_token: optionalString(),
    /** 1.36. */
    agent_version: optionalString(),
    /** PEM of the agent's self-generated TLS certificate (auto TLS, 1.68). */
    agent_verify_ca: optionalString(),
    /** One of {@link AGENT_STATUSES} (1.72). */
    agent_status: optionalString(),
    agent_status_message: optionalString(),
  },
  { additionalProperties: false },
);
export type HeartbeatRequest = Static<typeof HeartbeatBody>;

/** What later lookups show in place of the agent token. */
export const HIDDEN_AGENT_TOKEN = '******';

/** IPA accepts a token from the lookup only when it has at least this many characters. */
export const MIN_AGENT_TOKEN_LENGTH = 32;
