/**
 * A node's serial console at the moment it fails. A machine whose console is captured into a file on
 * the conductor's host (a console server, or the QEMU machines of `ingot bmc` and `ingot lab`) names
 * that file in `driver_info.console_log_file`; when the node fails, the last {@link CONSOLE_TAIL_BYTES}
 * of it are kept as `<console_logs_dir>/<node>_<UTC time>.log` and the history entry of the failure
 * names the copy, so "why is my node stuck" is answered by what the machine printed — also after the
 * machine was rebooted and the live log moved on.
 *
 * The path comes from whoever may edit the node, so it is read only when it is a regular file inside one
 * of `conductor.console_log_allowed_paths` once symbolic links are followed, opened without following a
 * link (O_NOFOLLOW) and without waiting on a FIFO (O_NONBLOCK), and at most the tail is read: never
 * `/etc/shadow`, `/proc/self/environ` or `/dev/zero`.
 */
import { constants } from 'node:fs';
import { mkdir, open, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileTime } from '../shared/clock.js';
import { fail, messageOf } from '../shared/errors.js';
import { nodeSecretValues, scrubValues } from '../shared/mask.js';
import type { Node } from '../domain/node.js';
import type { ConductorContext } from './context.js';

/** How much of the end of the console log is kept. */
export const CONSOLE_TAIL_BYTES = 64 * 1024;

/** What {@link keepConsoleLog} did: kept a copy, or refused the node's file (the reason names it). */
export type ConsoleLogOutcome = { kept: string } | { refused: string };

/**
 * The last `bytes` of `file` (all of it when shorter), starting at a line boundary when cut; never reads
 * more than `bytes + 1` bytes, whatever size the file claims. Opens without following a final symbolic
 * link; anything but a regular file is refused.
 */
export async function readTail(file: string, bytes: number): Promise<Buffer> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw fail('consoleLogNotRegular', { file });
    // One byte more, so a cut that falls right after a newline keeps its whole first line.
    const start = Math.max(0, st.size - bytes - 1);
    const buf = Buffer.alloc(Math.min(st.size, bytes + 1));
    const { bytesRead } = await handle.read(buf, 0, buf.length, start);
    const tail = buf.subarray(0, bytesRead);
    if (start === 0) return tail;
    const newline = tail.indexOf(0x0a);
    return newline >= 0 ? tail.subarray(newline + 1) : tail.subarray(1);
  } finally {
    await handle.close();
  }
}

function inside(dir: string, p: string): boolean {
  return p === dir || p.startsWith(dir.endsWith('/') ? dir : `${dir}/`);
}

/** The real path of `file` when it lies inside one of `allowed` (compared by real paths too); throws otherwise. */
export async function allowedConsoleLog(file: string, allowed: readonly string[]): Promise<string> {
  if (allowed.length === 0) throw fail('consoleLogDisabled', { file });
  let real: string;
  try {
    real = await realpath(file);
  } catch (err) {
    throw fail('consoleLogUnreadable', { file, reason: messageOf(err) }, { cause: err });
  }
  const dirs = await Promise.all(allowed.map((d) => realpath(d).catch(() => path.resolve(d))));
  if (!dirs.some((d) => inside(d, real))) throw fail('consoleLogOutsideAllowed', { file, path: real, allowed: allowed.join(', ') });
  return real;
}

/**
 * Keeps the tail of the node's console log (see the module doc). Null when the node names no console
 * log or none is kept (no `console_logs_dir`); `refused` with the reason when the file is not allowed or
 * cannot be read (also logged). Never throws.
 */
export async function keepConsoleLog(ctx: ConductorContext, node: Readonly<Node>): Promise<ConsoleLogOutcome | null> {
  const dir = ctx.config.console_logs_dir;
  const source = node.driver_info.console_log_file;
  if (!dir || typeof source !== 'string' || source === '') return null;
  try {
    const real = await allowedConsoleLog(source, ctx.config.console_log_allowed_paths ?? []);
    const tail = await readTail(real, CONSOLE_TAIL_BYTES);
    await mkdir(dir, { recursive: true });
    const file = path.join(path.resolve(dir), `${node.uuid}_${fileTime(ctx.clock.now())}.log`);
    // A console log can echo what the node was given (a BMC password on a kernel line, user data): kept masked.
    await writeFile(file, scrubValues(tail.toString('utf8'), nodeSecretValues(node)));
    return { kept: file };
  } catch (err) {
    const reason = messageOf(err);
    ctx.logger.warn({ node: node.uuid }, `could not keep the console log of node ${node.uuid}: ${reason}`);
    return { refused: reason };
  }
}
