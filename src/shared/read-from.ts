/**
 * Reading what a growing file (a serial console log) gained since an earlier read.
 */
import { open } from 'node:fs/promises';

/** The bytes of `file` from `offset` to its current end (empty when it has not grown); throws when it cannot be opened. */
export async function readFrom(file: string, offset: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size <= offset) return Buffer.alloc(0);
    const buf = Buffer.alloc(size - offset);
    const { bytesRead } = await handle.read(buf, 0, buf.length, offset);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
