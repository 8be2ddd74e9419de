import { Type, type Static } from 'typebox';

/** The REST API server. */
export const ApiConfig = Type.Object({
  host: Type.String({
    default: '127.0.0.1',
    description: 'Address the API (and the ironic-inspector compatible listener) listens on; any other than loopback needs `auth_strategy` other than `noauth`, or `allow_insecure_noauth`.',
  }),
  port: Type.Integer({ default: 6385, minimum: 0, maximum: 65535, description: 'TCP port of the API (Ironic’s is 6385).' }),
  inspector_port: Type.Integer({
    default: 5050,
    minimum: 0,
    maximum: 65535,
    description:
      'TCP port of the listener compatible with the legacy ironic-inspector API v1 (its port is 5050), on the same host as the API; 0 turns it off.',
  }),
  public_url: Type.String({ default: '', description: 'Base URL used in links; empty means the URL the client used (Host header).' }),
  max_limit: Type.Integer({ default: 1000, minimum: 1, description: 'Largest page a collection returns (`limit`).' }),
  max_body_bytes: Type.Integer({ default: 1048576, minimum: 1024, description: 'Largest accepted request body in bytes.' }),
  node_render_cache_chars: Type.Integer({
    default: 3_000_000,
    minimum: 0,
    description:
      'Bound, in characters (about bytes), on the rendered JSON of nodes kept between detailed node lists (`GET /v1/nodes/detail`, ' +
      '`?detail=True`): clients poll those lists constantly while most nodes do not change, and a node unchanged since it was ' +
      'last listed is answered from its kept text without reading or rendering it again (a text is kept from the second list ' +
      'that sees the node unchanged). About 2,600 characters per node; 0 turns the cache off.',
  }),
  max_inspection_body_bytes: Type.Integer({
    default: 33554432,
    minimum: 1024,
    description: 'Largest inspection data an agent may post (`POST /v1/continue_inspection`), logs included, in bytes.',
  }),
  conductor_alive_timeout_s: Type.Number({
    default: 60,
    exclusiveMinimum: 0,
    description: 'A conductor whose last heartbeat is older than this shows as `alive: false` in /v1/conductors.',
  }),
  // The public agent endpoints (lookup, heartbeat, continue_inspection, the legacy inspector's /v1/continue).
  agent_rate_limit_per_minute: Type.Integer({
    default: 600,
    minimum: 0,
    description:
      'Requests a minute one source address may send to the agent endpoints (lookup, heartbeat, inspection data), counted together; ' +
      'beyond it they are answered 429. An agent sends a few a minute. 0 turns the limit off.',
  }),
  agent_rate_limit_exempt: Type.Array(Type.String(), {
    default: ['127.0.0.1', '::1'],
    description: 'Source addresses the agent rate limit does not count (loopback by default, where simulated machines run).',
  }),
  // Authentication, with Ironic's names ([DEFAULT]auth_strategy, http_basic_auth_user_file).
  auth_strategy: Type.Union([Type.Literal('noauth'), Type.Literal('http_basic'), Type.Literal('keystone')], {
    default: 'noauth',
    description:
      'How API callers authenticate: `noauth` (nobody does; allowed on a loopback address only, unless `allow_insecure_noauth`), ' +
      '`http_basic` (an Apache htpasswd file of bcrypt entries, `http_basic_auth_user_file`; every user it accepts is an admin, as in Ironic) ' +
      'or `keystone` (not available yet). The agent endpoints (lookup, heartbeat, continue_inspection, the inspector’s /v1/continue) and the version documents stay public.',
  }),
  http_basic_auth_user_file: Type.String({
    default: '/etc/ingot/htpasswd',
    description: 'The Apache htpasswd file of `http_basic` (`htpasswd -B`: bcrypt entries only), read at start-up and again whenever it changes.',
  }),
  allow_insecure_noauth: Type.Boolean({
    default: false,
    description: 'Let `noauth` listen on an address other than loopback: anyone who reaches the port can then power off, wipe and reimage every machine.',
  }),
});
export type ApiConfig = Static<typeof ApiConfig>;
