/**
 * Ingot's TFTP boot server (read-only; RFC 1350 with the option extension of RFC 2347: blksize,
 * timeout, tsize and windowsize). See docs/tftp.md.
 */
export { tftpGet, TftpClientError, type TftpGetOptions, type TftpGetResult } from './client.js';
export { bufferFile, normaliseTftpPath, rootResolver, TftpError, type TftpFile, type TftpReader, type TftpRemote, type TftpResolver } from './files.js';
export { ERROR_CODE } from './packet.js';
export { createTftpServer, tftpServerOptions, type TftpServer, type TftpServerOptions } from './server.js';
export type { TransferOutcome, TransferRecord } from './transfer.js';
