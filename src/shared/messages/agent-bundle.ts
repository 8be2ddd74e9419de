/**
 * The messages of the ramdisk agent's bundle: what `src/agent/` raises and what the `protocol/` and
 * `shared/` modules it imports raise. `scripts/bundle-agent.mjs` puts this file in place of `index.ts`
 * in the agent's bundle, so the ramdisk does not carry the server's messages; test/agent/bundle.test.ts
 * checks that every message id the bundle names is here.
 */
import { AGENT_MESSAGES } from './agent.js';
import { CODE_MESSAGES } from './code-messages.js';
import { PROTOCOL_MESSAGES } from './protocol.js';
import { SHARED_MESSAGES } from './shared.js';

/** The messages the agent's bundle can raise, by id (as `MESSAGES` of `index.ts`). */
export const MESSAGES = { ...CODE_MESSAGES, ...AGENT_MESSAGES, ...PROTOCOL_MESSAGES, ...SHARED_MESSAGES };
