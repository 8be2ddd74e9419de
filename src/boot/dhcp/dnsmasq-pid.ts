/** Finding out whether a dnsmasq named by a PID file runs, without trusting a stale PID. */
import { readFile } from 'node:fs/promises';
import { fail } from '../../shared/errors.js';

/**
 * Throws DriverOperationError unless `pidFile` names a running process whose command is dnsmasq.
 * NOTE: PIDs wrap around, so a stale PID file can name an unrelated process: the command name in
 * /proc/PID/comm is checked, not only that the PID exists.
 */
export async function checkDnsmasqPidFile(pidFile: string): Promise<void> {
  let text: string;
  try {
    text = await readFile(pidFile, 'utf8');
  } catch (err) {
    throw fail('dnsmasqPidFileUnreadable', { pidFile, reason: (err as NodeJS.ErrnoException).code ?? String(err) });
  }
  const pid = Number(text.trim());
  if (!Number.isInteger(pid) || pid <= 0) throw fail('dnsmasqPidFileInvalid', { pidFile, content: text.trim() });
  const comm = await readFile(`/proc/${pid}/comm`, 'utf8').then((c) => c.trim(), () => undefined);
  if (comm !== 'dnsmasq') {
    throw comm ? fail('dnsmasqPidOtherProcess', { pid, pidFile, command: comm }) : fail('dnsmasqPidGone', { pid, pidFile });
  }
}

/** The command line of a running process, or undefined when there is none. */
export async function processCommandLine(pid: number): Promise<string[] | undefined> {
  const raw = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => undefined);
  return raw ? raw.split('\0').filter(Boolean) : undefined;
}
