/** The node as the agent's step commands carry it (Ironic `node.as_dict(secure=True)`, minus the token and config drive). */
import type { JsonObject, Node } from '../../domain/node.js';

/** See the module doc. */
export function nodeForAgent(n: Readonly<Node>): JsonObject {
  const { agent_secret_token: _t, ...internal } = n.driver_internal_info;
  const { configdrive: _c, ...instance } = n.instance_info;
  return { uuid: n.uuid, name: n.name, properties: n.properties, instance_info: instance, driver_internal_info: internal };
}
