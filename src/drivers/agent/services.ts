/**
 * What the conductor lends the agent's deploy and clean steps through `DriverTask.agent` (in Ironic,
 * `agent_client.get_client(task)` and the image cache of `deploy_utils`): the client of the agent's
 * command API, the image the agent writes (prepared by the conductor's image cache and served by its
 * HTTP boot server when needed) and the command watch. Narrow interfaces owned here: the conductor
 * builds the one object that serves every node.
 */
import type { Node } from '../../domain/node.js';
import type { ImageInfo } from '../../protocol/agent/commands.js';
import type { AgentClient } from './client.js';

/** The parameters of `standby.prepare_image`. */
export interface AgentImage {
  image_info: ImageInfo;
  configdrive: string | null;
  /** How the agent gets the image: from its own URL, or served by Ingot. */
  served: boolean;
}

/** See the module doc. */
export interface AgentServices {
  /** The client of the ramdisk agents' command API. */
  readonly client: AgentClient;
  /** The image and config drive the node's agent is to write; file work (cache, conversion, hashing) happens here. */
  image(node: Readonly<Node>, signal: AbortSignal): Promise<AgentImage>;
  /** Removes what {@link image} served for the node (undeploy). */
  releaseImage(node: Readonly<Node>): Promise<void>;
  /**
   * Looks at the asynchronous `command` just sent to the node's agent a few times over the next seconds,
   * holding nothing, and once it has ended continues the node's waiting flow as the agent's heartbeat
   * would: short commands do not wait for the next heartbeat.
   */
  watchCommand(node: Readonly<Node>, command: string): void;
}
