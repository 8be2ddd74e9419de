/**
 * `labDown`: removes a lab — its processes, its namespace (bridge, taps, the lab end of the uplink),
 * the host end of the uplink and its files — from `lab.json`, and as far as possible without it.
 * Idempotent: it can run after a clean stop, after a crash (stale `lab.json`, processes gone, children
 * orphaned) and twice.
 *
 * Processes: the recorded `ingot serve` and `ingot bmc` get SIGTERM (if /proc still shows them as
 * recorded), which stops their children (dnsmasq, QEMU) in order; SIGKILL after a grace period. Then
 * every process still naming a file of the lab directory on its command line (a QEMU or dnsmasq whose
 * parent was killed) is stopped the same way, and, with `force`, every Ingot, QEMU or dnsmasq process
 * left inside the namespace. Other processes inside the namespace (an operator's shell) are reported,
 * not killed: the namespace then lingers until they leave it.
 */
import { readdir, realpath, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { fail } from '../../shared/errors.js';
import { listNamespaces, namespacePids } from './host-tools.js';
import { deleteLabNetwork } from './lab-network.js';
import { type LabState, readLabState } from './lab-state.js';
import { checkNamespaceName, DEFAULT_NAMESPACE, hostVethName, labEntries, labPaths } from './layout.js';
import { findProcesses, procInfo, stillRunning, stopProcesses, type StopOutcome, type StopTarget } from './processes.js';

/** How to take a lab down. */
export interface LabDownOptions {
  dir: string;
  /**
   * Also remove a namespace for which no `lab.json` is left (a lab that crashed while starting, or
   * whose directory was removed), with the Ingot, QEMU and dnsmasq processes inside it. Only names
   * `ingot-lab…` are touched.
   */
  force?: boolean;
  /** The namespace when `lab.json` does not name it; default `ingot-lab`. */
  namespace?: string;
  /** How long processes get after SIGTERM; default 15 s. */
  graceMs?: number;
  log?: (line: string) => void;
  signal?: AbortSignal;
}

/** What {@link labDown} did. */
export interface LabDownReport {
  /** Whether a `lab.json` was found. */
  hadState: boolean;
  namespace: string;
  stopped: StopOutcome[];
  namespaceDeleted: boolean;
  hostVethDeleted: boolean;
  removedFiles: string[];
  /** Things left behind, and why. */
  warnings: string[];
}

const LAB_PROGRAMS = /(^|\/)(qemu-system-[\w-]+|dnsmasq)$/;

/** QEMU, dnsmasq, or `… ingot… serve|bmc …` (the lab's Ingot processes). */
export function isLabProgram(cmdline: string): boolean {
  const argv = cmdline.split(' ');
  if (LAB_PROGRAMS.test(argv[0] ?? '')) return true;
  const role = argv.findIndex((a) => a === 'serve' || a === 'bmc');
  return role > 0 && argv.slice(0, role).some((a) => /ingot/.test(path.basename(a)));
}

/** Removes the lab in `opts.dir` (see the module doc). */
export async function labDown(opts: LabDownOptions): Promise<LabDownReport> {
  const log = opts.log ?? (() => undefined);
  const started = Date.now();
  const secs = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  // The real path: lab.json and the processes' command lines name the directory as labUp resolved it.
  const paths = labPaths(await realpath(opts.dir).catch(() => opts.dir));
  let state: LabState | undefined;
  try {
    state = await readLabState(paths.state);
  } catch (err) {
    if (!opts.force) throw err;
    log(`lab: ignoring ${paths.state}: ${(err as Error).message}`);
  }
  const ns = checkNamespaceName(state?.namespace ?? opts.namespace ?? DEFAULT_NAMESPACE);
  const nsExists = (await listNamespaces()).includes(ns);
  if (!state && nsExists && !opts.force) {
    throw fail('labNamespaceUnrecorded', { namespace: ns, state: paths.state });
  }
  const report: LabDownReport = { hadState: state !== undefined, namespace: ns, stopped: [], namespaceDeleted: false, hostVethDeleted: false, removedFiles: [], warnings: [] };
  const graceMs = opts.graceMs ?? 15_000;

  // 1. The recorded processes: on SIGTERM they stop their own children (dnsmasq, QEMU) before exiting.
  const recorded: StopTarget[] = (state?.processes ?? []).map((p) => ({
    label: `ingot ${p.role}`,
    pid: p.pid,
    isOurs: () => stillRunning(p, [`ip netns exec ${ns} ${p.cmdline}`]),
  }));
  report.stopped.push(...(await stopProcesses(recorded, graceMs, 5000, opts.signal)));
  if (recorded.length > 0) log(`lab: recorded processes handled (${secs()})`);

  // 2. Orphans: the lab's programs (QEMU, dnsmasq, Ingot) still naming a file of the lab directory (QEMU:
  //    its disk, PID file and serial log; the managed dnsmasq: its configuration file), and with force
  //    those inside the namespace. A `tail -f` of a lab log is no lab program and is left alone.
  const prefix = `${paths.dir}/`;
  const inNs = new Set(nsExists ? await namespacePids(ns) : []);
  const orphans = await findProcesses((p) => isLabProgram(p.cmdline) && (p.cmdline.includes(prefix) || (opts.force === true && inNs.has(p.pid))));
  const orphanTargets: StopTarget[] = orphans
    .filter((o) => !recorded.some((r) => r.pid === o.pid))
    .map((o) => ({
      label: o.cmdline.split(' ')[0]?.split('/').pop() ?? String(o.pid),
      pid: o.pid,
      isOurs: async () => (await procInfo(o.pid))?.startTicks === o.startTicks,
    }));
  if (orphanTargets.length > 0) {
    log(`lab: stopping ${orphanTargets.length} process(es) left by the lab: ${orphanTargets.map((t) => `${t.label} (${t.pid})`).join(', ')}`);
    report.stopped.push(...(await stopProcesses(orphanTargets, Math.min(graceMs, 5000), 5000, opts.signal)));
    log(`lab: left-over processes handled (${secs()})`);
  }
  for (const s of report.stopped) if (s.result === 'alive') report.warnings.push(`${s.label} (PID ${s.pid}) survived SIGKILL`);

  // 3. The network.
  if (nsExists) {
    for (const pid of await namespacePids(ns)) {
      const info = await procInfo(pid);
      if (info) report.warnings.push(`PID ${pid} (${info.cmdline.slice(0, 80)}) is still inside ${ns}: the namespace's interfaces stay until it leaves`);
    }
  }
  const removal = await deleteLabNetwork(ns, state?.veth.host ?? hostVethName(ns));
  report.namespaceDeleted = removal.namespaceDeleted;
  report.hostVethDeleted = removal.hostVethDeleted;
  if (removal.namespaceDeleted && removal.hostVethDeleted) {
    report.warnings.push(`the kernel still held namespace ${ns} after it was deleted (sockets or processes in it): its bridge and taps go once those are gone; the uplink was deleted by name`);
  }

  // 4. The files of the layout, then the directory when nothing else is in it.
  const present = new Set(await readdir(paths.dir).catch(() => [] as string[]));
  for (const entry of labEntries(paths)) {
    if (!present.has(path.basename(entry))) continue;
    await rm(entry, { recursive: true, force: true });
    report.removedFiles.push(entry);
  }
  for (const name of present) if (name.startsWith('lab.json.tmp-')) await rm(path.join(paths.dir, name), { force: true });
  await rmdir(paths.dir).catch(() => undefined);

  const stopped = report.stopped.filter((s) => s.result !== 'gone');
  log(
    `lab: down — ${stopped.length > 0 ? `stopped ${stopped.map((s) => `${s.label} (${s.pid}, ${s.result})`).join(', ')}` : 'no process was running'}; ` +
      `namespace ${ns} ${report.namespaceDeleted ? 'deleted' : 'was not there'}; ${report.removedFiles.length} file(s) removed` +
      `${report.warnings.length > 0 ? `; warnings: ${report.warnings.join('; ')}` : ''} (${secs()})`,
  );
  return report;
}
