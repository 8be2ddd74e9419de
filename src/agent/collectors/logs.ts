/**
 * The `logs` collector: a gzipped tar of the ramdisk's system logs, base64, in `payload.logs`
 * (IPA's `collect_logs`; Ironic's ramdisk-error hook stores it). Each file keeps its last
 * {@link MAX_LOG_BYTES}, so a chatty journal cannot blow up the callback body.
 */
import { gzipSync } from 'node:zlib';
import type { AgentSystem } from '../system.js';
import type { Collector } from './collector.js';
import { ustar, type TarEntry } from './tar.js';

/** Bytes kept from the end of each log. */
export const MAX_LOG_BYTES = 4 * 1024 * 1024;

function tail(data: Buffer): Buffer {
  return data.length > MAX_LOG_BYTES ? data.subarray(data.length - MAX_LOG_BYTES) : data;
}

/** The log files: `dmesg`, `journal` (journalctl of this boot), `var/log/<x>.log`, and notes on what was missing. */
export async function gatherLogs(system: AgentSystem): Promise<TarEntry[]> {
  const now = Math.floor(Date.now() / 1000);
  const entries: TarEntry[] = [];
  const notes: string[] = [];
  const tool = async (name: string, file: string, cmd: string, args: string[]) => {
    const r = await system.run(cmd, args, { timeoutMs: 30_000 });
    if (r.missing) notes.push(`${cmd} not installed: ${file} omitted`);
    else if (!r.ok && r.stdout === '') notes.push(`${name} failed: ${r.error}`);
    else entries.push({ name: file, data: tail(Buffer.from(r.stdout)), mtime: now });
  };
  await tool('dmesg', 'dmesg', 'dmesg', []);
  await tool('journalctl', 'journal', 'journalctl', ['-b', '--no-pager', '-o', 'short-iso']);
  for (const f of ((await system.list('/var/log')) ?? []).filter((n) => n.endsWith('.log'))) {
    const data = await system.readBytes(`/var/log/${f}`);
    if (data) entries.push({ name: `var/log/${f}`, data: tail(data), mtime: now });
  }
  if (notes.length) entries.push({ name: 'collector-notes.txt', data: Buffer.from(`${notes.join('\n')}\n`), mtime: now });
  return entries;
}

export const collectLogs: Collector = async (payload, { system }) => {
  payload.logs = gzipSync(ustar(await gatherLogs(system))).toString('base64');
};
