/**
 * Every error message of Ingot, by id: the code each is raised with and its text, in which `{name}` stands
 * for a value the caller gives (Ironic's `_msg_fmt`, fastify's `createError`). A call site names the message
 * and passes values, never a sentence — `fail('stepNotSupported', { kind, step, iface, impl })` — so the
 * same error always reads the same. The codes whose message has one shape (NodeNotFound, NodeLocked, …)
 * are messages under their own name, with the text of the code table; the others are grouped by the
 * folder of `src/` that raises them, one file each (a message raised in several folders is in the file of the
 * lowest layer among them, or in `shared.ts`). Imports only the code table.
 */
import { AGENT_MESSAGES } from './agent.js';
import { API_MESSAGES } from './api.js';
import { BMC_MESSAGES } from './bmc.js';
import { BOOT_MESSAGES } from './boot.js';
import { CLI_MESSAGES } from './cli.js';
import { CONDUCTOR_MESSAGES } from './conductor.js';
import { CONFIG_MESSAGES } from './config.js';
import { DB_MESSAGES } from './db.js';
import { DOMAIN_MESSAGES } from './domain.js';
import { DRIVERS_MESSAGES } from './drivers.js';
import { DRIVERS_IPMI_MESSAGES } from './drivers-ipmi.js';
import { DRIVERS_REDFISH_MESSAGES } from './drivers-redfish.js';
import { IMAGES_MESSAGES } from './images.js';
import { INSPECTION_MESSAGES } from './inspection.js';
import { LAB_MESSAGES } from './lab.js';
import { MAIN_MESSAGES } from './main.js';
import { PROTOCOL_MESSAGES } from './protocol.js';
import { SHARED_MESSAGES } from './shared.js';
import { CODE_MESSAGES } from './code-messages.js';

export type { MessageSpec, MessageTable } from './table.js';

/** The tables by the folder of `src/` that raises them, `drivers/` in three (a test checks that no id is in two). */
export const MESSAGE_TABLES = {
  agent: AGENT_MESSAGES,
  api: API_MESSAGES,
  bmc: BMC_MESSAGES,
  boot: BOOT_MESSAGES,
  cli: CLI_MESSAGES,
  conductor: CONDUCTOR_MESSAGES,
  config: CONFIG_MESSAGES,
  db: DB_MESSAGES,
  domain: DOMAIN_MESSAGES,
  drivers: DRIVERS_MESSAGES,
  'drivers-ipmi': DRIVERS_IPMI_MESSAGES,
  'drivers-redfish': DRIVERS_REDFISH_MESSAGES,
  images: IMAGES_MESSAGES,
  inspection: INSPECTION_MESSAGES,
  lab: LAB_MESSAGES,
  main: MAIN_MESSAGES,
  protocol: PROTOCOL_MESSAGES,
  shared: SHARED_MESSAGES,
} as const;

/** Every message by id. */
export const MESSAGES = {
  ...CODE_MESSAGES,
  ...AGENT_MESSAGES,
  ...API_MESSAGES,
  ...BMC_MESSAGES,
  ...BOOT_MESSAGES,
  ...CLI_MESSAGES,
  ...CONDUCTOR_MESSAGES,
  ...CONFIG_MESSAGES,
  ...DB_MESSAGES,
  ...DOMAIN_MESSAGES,
  ...DRIVERS_MESSAGES,
  ...DRIVERS_IPMI_MESSAGES,
  ...DRIVERS_REDFISH_MESSAGES,
  ...IMAGES_MESSAGES,
  ...INSPECTION_MESSAGES,
  ...LAB_MESSAGES,
  ...MAIN_MESSAGES,
  ...PROTOCOL_MESSAGES,
  ...SHARED_MESSAGES,
};

/** The id of a message. */
export type MessageId = keyof typeof MESSAGES;

/** The text of message `M`. */
export type MessageText<M extends MessageId> = (typeof MESSAGES)[M]['text'];
