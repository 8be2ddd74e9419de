/** Raised by the IPMI codec when bytes on the wire do not form a valid packet or message. */
export class IpmiDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IpmiDecodeError';
  }
}

/** Throws {@link IpmiDecodeError} unless `buf` holds at least `need` bytes from `offset`. */
export function need(buf: Uint8Array, offset: number, need: number, what: string): void {
  if (buf.length < offset + need) throw new IpmiDecodeError(`${what}: needs ${offset + need} bytes, got ${buf.length}`);
}
