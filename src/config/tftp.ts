import { Type, type Static } from 'typebox';

/** The TFTP boot server: bootloaders, configs, kernels and ramdisks for PXE clients (read-only). */
export const TftpConfig = Type.Object({
  enabled: Type.Boolean({ default: false, description: 'Run the TFTP server in `ingot serve`.' }),
  host: Type.String({ default: '0.0.0.0', description: 'Address the TFTP server listens on (`::` for IPv6 and IPv4).' }),
  port: Type.Integer({ default: 69, minimum: 0, maximum: 65535, description: 'UDP port of TFTP requests; each transfer then uses its own ephemeral port.' }),
  root_dir: Type.String({
    default: '',
    description: 'Directory whose files are served (read-only, nothing outside it). Empty: only files Ingot generates are served.',
  }),
  max_blksize: Type.Integer({
    default: 1468,
    minimum: 8,
    maximum: 65464,
    description: 'Largest block size granted to a client asking for the blksize option (RFC 2348); 1468 fits a 1500-byte MTU.',
  }),
  max_windowsize: Type.Integer({
    default: 64,
    minimum: 1,
    maximum: 65535,
    description: 'Largest number of blocks sent before an ACK, granted to a client asking for the windowsize option (RFC 7440).',
  }),
  timeout_s: Type.Number({
    default: 1,
    exclusiveMinimum: 0,
    maximum: 255,
    description: 'Time without an ACK before a window is sent again, unless the client negotiates its own (timeout option, RFC 2349).',
  }),
  retries: Type.Integer({ default: 5, minimum: 0, description: 'Retransmissions of one window before the transfer of a silent client is dropped.' }),
});
export type TftpConfig = Static<typeof TftpConfig>;
