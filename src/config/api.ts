import { Type, type Static } from 'typebox';

/** The REST API server. */
export const ApiConfig = Type.Object({
  host: Type.String({ default: '0.0.0.0', description: 'Address the API listens on.' }),
  port: Type.Integer({ default: 6385, minimum: 0, maximum: 65535, description: 'TCP port of the API (Ironic’s is 6385).' }),
  public_url: Type.String({ default: '', description: 'Base URL used in links; empty means the URL the client used (Host header).' }),
  max_limit: Type.Integer({ default: 1000, minimum: 1, description: 'Largest page a collection returns (`limit`).' }),
  max_body_bytes: Type.Integer({ default: 1048576, minimum: 1024, description: 'Largest accepted request body in bytes.' }),
  conductor_alive_timeout_s: Type.Number({
    default: 60,
    exclusiveMinimum: 0,
    description: 'A conductor whose last heartbeat is older than this shows as `alive: false` in /v1/conductors.',
  }),
});
export type ApiConfig = Static<typeof ApiConfig>;
