/** Ingot's image pipeline: sources, downloads, checksums, the master cache, formats and config drives. */
export * from './errors.js';
export * from './digest.js';
export * from './source.js';
export * from './download.js';
export { parseChecksum, resolveChecksum, findInChecksumFile, imageNames, hashFile, MAX_CHECKSUM_FILE_BYTES, type ChecksumPolicy, type ResolveChecksumOptions } from './checksum.js';
export * from './convert.js';
export * from './cache.js';
export * from './flights.js';
export * from './configdrive/iso9660.js';
export * from './configdrive/render.js';
export * from './configdrive/decode.js';
