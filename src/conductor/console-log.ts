/**
 * A node's serial console at the moment it fails. A machine whose console is captured into a file on
 * the conductor's host (a console server, or the QEMU machines of `ingot bmc` and `ingot lab`) names
 * that file in `driver_info.console_log_file`; when the node fails, the last {@link CONSOLE_TAIL_BYTES}
 * of it are kept as `<console_logs_dir>/<node>_<UTC time>.log` and the history entry of the failure
 * names the copy, so "why is my node stuck" is answered by what the machine printed — also after the
 * machine was rebooted and the live log moved on.
 */
import { mkdir, open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileTime } from '../shared/clock.js';
import { messageOf } from '../shared/errors.js';
import type { Node } from '../domain/node.js';
import type { ConductorContext } from './context.js';

/** How much of the end of the console log is kept. */
export const CONSOLE_TAIL_BYTES = 64 * 1024;

/** The last `bytes` of `file` (all of it when shorter), starting at a line boundary when cut. */
export async function readTail(file: string, bytes: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size <= bytes) return await handle.readFile();
    // One byte more, so a cut that falls right after a newline keeps its whole first line.
    const start = size - bytes - 1;
    const buf = Buffer.alloc(bytes + 1);
    const { bytesRead } = await handle.read(buf, 0, buf.length, start);
    const tail = buf.subarray(0, bytesRead);
    const newline = tail.indexOf(0x0a);
    return newline >= 0 ? tail.subarray(newline + 1) : tail.subarray(1);
  } finally {
    await handle.close();
  }
}

/**
 * Keeps the tail of the node's console log (see the module doc); returns the copy, or null when the
 * node names no console log, none is kept (no `console_logs_dir`) or it cannot be read (logged).
 * Never throws.
 */
export async function keepConsoleLog(ctx: ConductorContext, node: Readonly<Node>): Promise<string | null> {
  const dir = ctx.config.console_logs_dir;
  const source = node.driver_info.console_log_file;
  if (!dir || typeof source !== 'string' || source === '') return null;
  try {
    const tail = await readTail(source, CONSOLE_TAIL_BYTES);
    await mkdir(dir, { recursive: true });
    const file = path.join(path.resolve(dir), `${node.uuid}_${fileTime(ctx.clock.now())}.log`);
    await writeFile(file, tail);
    return file;
  } catch (err) {
    ctx.logger.warn({ node: node.uuid }, `could not keep the console log ${source} of node ${node.uuid}: ${messageOf(err)}`);
    return null;
  }
}
