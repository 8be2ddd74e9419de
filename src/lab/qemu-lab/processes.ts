/**
 * Processes of a lab, found and stopped through /proc without trusting a PID alone.
 *
 * NOTE: PIDs wrap around, so a PID recorded by an earlier run may name an unrelated process now: a
 * process is the lab's only while its start time (/proc/PID/stat field 22) and the start of its
 * command line still match what was recorded. Zombies count as gone: on hosts whose PID 1 does not
 * reap orphans (a container whose PID 1 is no init), a stopped process whose parent is gone stays a zombie forever.
 */
import { readdir, readFile } from 'node:fs/promises';

/** What identifies a process across time. */
export interface ProcessIdentity {
  pid: number;
  /** The start of /proc/PID/cmdline, arguments joined by single spaces. */
  cmdline: string;
  /** Start time in clock ticks since boot (/proc/PID/stat field 22); null when unknown. */
  start_ticks: number | null;
}

/** A live (non-zombie) process as /proc shows it. */
export interface ProcInfo {
  pid: number;
  /** Arguments joined by single spaces. */
  cmdline: string;
  startTicks: number;
  state: string;
  /** CPU time used so far, user + system, in clock ticks (/proc/PID/stat fields 14 and 15; 100 a second). */
  cpuTicks: number;
}

/** How many characters of the command line are recorded. */
export const CMDLINE_KEPT = 400;

/** The process `pid`, or undefined when it is gone or a zombie. */
export async function procInfo(pid: number): Promise<ProcInfo | undefined> {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  const [stat, raw] = await Promise.all([
    readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined),
    readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => undefined),
  ]);
  if (stat === undefined || raw === undefined) return undefined;
  // The command name (field 2) is in parentheses and may hold spaces and ')': split after the last one.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const state = rest[0] ?? '?';
  if (state === 'Z' || state === 'X') return undefined;
  return { pid, cmdline: raw.split('\0').filter(Boolean).join(' '), startTicks: Number(rest[19]), state, cpuTicks: Number(rest[11]) + Number(rest[12]) };
}

/** The identity to record for a running process (undefined when it is gone). */
export async function identify(pid: number): Promise<ProcessIdentity | undefined> {
  const info = await procInfo(pid);
  return info ? { pid, cmdline: info.cmdline.slice(0, CMDLINE_KEPT), start_ticks: info.startTicks } : undefined;
}

/**
 * Whether the recorded process still runs as recorded. `alsoAccept` are command-line prefixes a
 * process may show besides the recorded one (e.g. `ip netns exec NS …` before ip has exec'd it).
 */
export async function stillRunning(record: ProcessIdentity, alsoAccept: readonly string[] = []): Promise<boolean> {
  const info = await procInfo(record.pid);
  if (!info) return false;
  if (record.start_ticks !== null && info.startTicks !== record.start_ticks) return false;
  return [record.cmdline, ...alsoAccept].some((prefix) => prefix !== '' && info.cmdline.startsWith(prefix));
}

/** Every live process whose command line passes `match`, except this process. */
export async function findProcesses(match: (info: ProcInfo) => boolean): Promise<ProcInfo[]> {
  const names = await readdir('/proc').catch(() => [] as string[]);
  const found: ProcInfo[] = [];
  await Promise.all(names.filter((n) => /^\d+$/.test(n)).map(async (n) => {
    const pid = Number(n);
    if (pid === process.pid) return;
    const info = await procInfo(pid);
    if (info && match(info)) found.push(info);
  }));
  return found.sort((a, b) => a.pid - b.pid);
}

/** A process to stop, with the check that it is still the one meant. */
export interface StopTarget {
  label: string;
  pid: number;
  /** True while the PID still names the process meant (checked before every signal). */
  isOurs: () => Promise<boolean>;
}

/** What happened to a {@link StopTarget}. */
export interface StopOutcome {
  label: string;
  pid: number;
  /** `SIGTERM`: it ended after SIGTERM; `SIGKILL`: it needed SIGKILL; `gone`: it had already ended; `alive`: it survived SIGKILL. */
  result: 'SIGTERM' | 'SIGKILL' | 'gone' | 'alive';
}

const POLL_MS = 100;

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

async function sleep(ms: number, abort?: AbortSignal): Promise<void> {
  abort?.throwIfAborted();
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * SIGTERM to every target that is still ours, SIGKILL to those still there after `graceMs`, then waits
 * up to `killWaitMs` for them to end. Never throws for a process that is gone.
 */
export async function stopProcesses(targets: readonly StopTarget[], graceMs: number, killWaitMs = 5000, abort?: AbortSignal): Promise<StopOutcome[]> {
  const outcome = new Map<StopTarget, StopOutcome['result']>();
  const running: StopTarget[] = [];
  for (const t of targets) {
    if (await t.isOurs()) {
      signal(t.pid, 'SIGTERM');
      running.push(t);
    } else {
      outcome.set(t, 'gone');
    }
  }
  const waitGone = async (list: StopTarget[], ms: number): Promise<StopTarget[]> => {
    let left = list;
    for (const deadline = Date.now() + ms; left.length > 0 && Date.now() < deadline;) {
      await sleep(POLL_MS, abort);
      left = (await Promise.all(left.map(async (t) => ((await t.isOurs()) ? t : null)))).filter((t): t is StopTarget => t !== null);
    }
    return left;
  };
  const afterTerm = await waitGone(running, graceMs);
  for (const t of running) if (!afterTerm.includes(t)) outcome.set(t, 'SIGTERM');
  for (const t of afterTerm) if (await t.isOurs()) signal(t.pid, 'SIGKILL');
  const afterKill = await waitGone(afterTerm, killWaitMs);
  for (const t of afterTerm) outcome.set(t, afterKill.includes(t) ? 'alive' : 'SIGKILL');
  return targets.map((t) => ({ label: t.label, pid: t.pid, result: outcome.get(t) ?? 'gone' }));
}
