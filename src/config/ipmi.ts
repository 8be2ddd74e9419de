import { Type, type Static } from 'typebox';

/** The IPMI driver's native RMCP+ client (Ironic's `[ipmi]`). */
export const IpmiConfig = Type.Object({
  command_retry_timeout_s: Type.Number({ default: 60, exclusiveMinimum: 0, description: 'How long a failing IPMI command is retried before it fails.' }),
  min_command_interval_s: Type.Number({
    default: 0.1,
    minimum: 0,
    description: 'Least time between two commands to one BMC. Ingot keeps one session per BMC, so this only spaces bursts; raise it for BMCs that choke.',
  }),
  retransmit_initial_s: Type.Number({ default: 1, exclusiveMinimum: 0, description: 'First retransmission timeout of an unanswered packet; it doubles each time.' }),
  session_idle_timeout_s: Type.Number({ default: 30, exclusiveMinimum: 0, description: 'An IPMI session unused this long is closed.' }),
});
export type IpmiConfig = Static<typeof IpmiConfig>;
