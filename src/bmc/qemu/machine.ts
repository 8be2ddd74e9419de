/**
 * The QEMU back-end of a BMC emulator's machine: power and boot device act on a real QEMU process
 * (TCG) through QMP. Every boot is a fresh QEMU started with the boot order of the current override
 * (a one-time override is consumed by that boot, through BootState): power on starts QEMU, hard off ends
 * it (`quit`, then SIGKILL to its PID after a grace period), reset and cycle end it and start a new one,
 * soft off presses the ACPI power button (`system_powerdown`; the guest may ignore it, as real machines
 * may), NMI is `inject-nmi`.
 *
 * NOTE: why not `system_reset` in place: SeaBIOS 1.16.2 on QEMU 7.2 answers a warm reset with a second
 * reset of its own (`qemu_reboot`: QEMU leaves the BIOS shadow RAM in place, so SeaBIOS restores it and
 * resets again; observed as RESET {guest: true, reason: "guest-reset"} ~90 ms after the host's reset).
 * QEMU rebuilds the firmware's `bootorder` from the devices' `bootindex` at every reset, so a boot order
 * changed with `qom-set` around a reset races with that second reset, and power on after a guest
 * power-off (`system_reset` + `cont`) shows the same double reset. A fresh process boots cold, once, with
 * its order fixed on the command line, for SeaBIOS and OVMF alike; it costs ~0.1 s.
 *
 * Guest-initiated reboots: QEMU runs with `-action reboot=shutdown`, so a guest reboot stops the VM with
 * SHUTDOWN {reason: "guest-reset"} instead of resetting; the back-end answers it by booting a fresh QEMU
 * with the then-current override, so a one-time override set while the OS runs is used by its next reboot.
 * A guest power-off (`-no-shutdown`) leaves QEMU stopped with status "shutdown", which reads as off.
 *
 * Every boot answers iPXE's 2 s "Press Ctrl-B" prompt with a key press (ipxe-prompt.ts).
 */
import { copyFileSync, existsSync, mkdirSync, openSync, closeSync, ftruncateSync, rmSync, statSync } from 'node:fs';
import { fail } from '../../shared/errors.js';
import { BootState } from '../boot-events.js';
import { NO_FAULTS, type BootEvent, type Machine, type MachinePower, type VirtualMediaState } from '../machine.js';
import { bootOrder, CDROM_ID, localMediaPath, qemuArgs, qemuPaths, type QemuPaths } from './command-line.js';
import { answerIpxePrompts } from './ipxe-prompt.js';
import { QemuProcess } from './process.js';
import type { QmpEvent } from './qmp.js';
import { qemuProfile, resolveSpec, type QemuMachineSpec } from './spec.js';

export type { QemuMachineSpec, QemuNicSpec } from './spec.js';

/** A {@link Machine} backed by a QEMU process, with access to that process for tests and tools. */
export interface QemuMachine extends Machine {
  /** Files of this machine (QMP socket, PID file, serial log, QEMU log). */
  readonly paths: QemuPaths;
  /** PID of the running QEMU, or null when there is none. */
  pid(): number | null;
  /** Runs a QMP command on the running QEMU (fails when there is none). */
  qmp<T = unknown>(command: string, args?: Record<string, unknown>): Promise<T>;
}

/** Grace period for QMP `quit` before SIGKILL. */
const QUIT_GRACE_MS = 5000;

/** Builds a machine for `spec`; QEMU starts at the first power on. Throws on an invalid spec. */
export function qemuMachine(spec: QemuMachineSpec): QemuMachine {
  const resolved = resolveSpec(spec);
  const paths = qemuPaths(resolved.workDir);
  const profile = qemuProfile(resolved);
  const boot = new BootState(resolved.bootMode === 'uefi' ? 'uefi' : 'legacy');
  let media: VirtualMediaState = { image: null, inserted: false, write_protected: true };
  let proc: QemuProcess | null = null;
  /** The process whose guest asked to reboot; it is replaced by a fresh boot as soon as the queue allows. */
  let rebootPending: QemuProcess | null = null;
  let closed = false;
  // BootState keeps the override; the boot is announced here, once QEMU runs (see start()).
  const bootListeners = new Set<(event: BootEvent) => void>();
  const offListeners = new Set<(machine: Machine) => void>();
  /** Processes the back-end ends itself (power off, reset, close): their exit is no power off of its own. */
  const endedByUs = new WeakSet<QemuProcess>();
  const poweredOff = () => {
    for (const listener of offListeners) listener(machine);
  };
  let chain: Promise<unknown> = Promise.resolve();

  /** Runs `fn` after every earlier operation: power actions and status reads never interleave. */
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = chain.then(fn, fn);
    chain = run.catch(() => undefined);
    return run;
  };

  const alive = (): QemuProcess | null => {
    if (proc && !proc.running) proc = null;
    return proc;
  };

  const status = async (p: QemuProcess): Promise<string> => (await p.qmp.execute<{ status: string }>('query-status')).status;

  const onEvent = (p: QemuProcess, event: QmpEvent) => {
    if (event.event !== 'SHUTDOWN') return;
    // A guest power-off (`guest-shutdown`, also after an ACPI power button press) leaves QEMU stopped: off.
    if (event.data.reason === 'guest-shutdown') {
      if (!endedByUs.has(p)) poweredOff();
      return;
    }
    if (event.data.reason !== 'guest-reset') return;
    rebootPending = p;
    void serial(async () => {
      if (rebootPending !== p) return; // the BMC powered it off or booted it meanwhile
      if (alive() === p) await restart();
      else rebootPending = null;
    }).catch(() => undefined); // a failed start leaves the machine off, as power() then reports
  };

  const prepareFiles = () => {
    mkdirSync(resolved.workDir, { recursive: true });
    if (!existsSync(resolved.disk.path)) {
      const fd = openSync(resolved.disk.path, 'wx');
      try {
        ftruncateSync(fd, resolved.disk.sizeBytes); // sparse raw image
      } finally {
        closeSync(fd);
      }
    }
    if (resolved.ovmf && !existsSync(paths.ovmfVars)) copyFileSync(resolved.ovmf.vars, paths.ovmfVars);
    rmSync(paths.qmp, { force: true });
  };

  const removeRunFiles = () => {
    rmSync(paths.qmp, { force: true });
    rmSync(paths.pid, { force: true });
  };

  const start = async (): Promise<void> => {
    if (closed) throw fail('qemuMachineClosed', { machine: resolved.name });
    prepareFiles();
    // The boot device is decided (and a one-time override consumed) when the command line is built, so
    // an override set while QEMU starts applies to the next boot, not half to this one.
    const before = boot.override;
    const device = boot.take();
    const serialFrom = existsSync(paths.serialLog) ? statSync(paths.serialLog).size : 0;
    let p: QemuProcess;
    try {
      p = await QemuProcess.start({
        binary: resolved.qemuBinary,
        args: qemuArgs(resolved, paths, bootOrder(device, resolved.nics.length), media.inserted ? localMediaPath(media.image) : null),
        logPath: paths.qemuLog,
        qmpPath: paths.qmp,
      });
    } catch (err) {
      if (boot.override.device === 'none' && before.persistence === 'once') boot.set({ device: before.device }); // not booted: not consumed
      throw err;
    }
    if (closed) {
      await p.stop(QUIT_GRACE_MS);
      removeRunFiles();
      throw fail('qemuClosedWhileStarting', { machine: resolved.name });
    }
    proc = p;
    p.qmp.onEvent((event) => onEvent(p, event));
    answerIpxePrompts({
      serialLog: paths.serialLog,
      from: serialFrom,
      pressKey: () => p.qmp.execute('send-key', { keys: [{ type: 'qcode', data: 'spc' }] }),
      running: () => proc === p && p.running && !closed,
    });
    // QEMU ending on its own (killed, crashed) is a power off too.
    void p.exited.then(() => {
      if (!endedByUs.has(p) && !closed) poweredOff();
    });
    for (const listener of bootListeners) listener({ machine, device });
  };

  const stop = async (): Promise<void> => {
    const p = alive();
    proc = null;
    rebootPending = null;
    if (p) endedByUs.add(p);
    if (p) await p.stop(QUIT_GRACE_MS);
    removeRunFiles();
  };

  /** Ends the running QEMU, if any, and boots a fresh one. */
  const restart = async (): Promise<void> => {
    await stop();
    await start();
  };

  const machine: QemuMachine = {
    backend: 'qemu',
    name: resolved.name,
    profile,
    username: resolved.username,
    password: resolved.password,
    faults: { ...NO_FAULTS, ...spec.faults },
    paths,
    pid: () => alive()?.pid ?? null,
    qmp: <T>(command: string, args?: Record<string, unknown>) => {
      const p = alive();
      if (!p) return Promise.reject(fail('qemuNotRunning', { machine: resolved.name }));
      return p.qmp.execute<T>(command, args);
    },
    power: () =>
      serial(async (): Promise<MachinePower> => {
        const p = alive();
        if (!p) return 'off';
        const now = await status(p);
        // Rebooting: the fresh QEMU is next in the queue. Checked after the reply: QMP sends the SHUTDOWN
        // event of a guest reboot before the reply to a later query-status, so the flag is set by now.
        if (rebootPending === p) return 'on';
        return now === 'shutdown' ? 'off' : 'on';
      }),
    act: (action) =>
      serial(async () => {
        if (closed) throw fail('qemuMachineClosed', { machine: resolved.name });
        if (machine.faults.hang_power) return;
        const p = alive();
        const current = p ? await status(p) : null;
        switch (action) {
          case 'on':
            // After a guest power-off QEMU is still there, stopped: replace it (cold boot, see above).
            if (!p || (current === 'shutdown' && rebootPending !== p)) await restart();
            return;
          case 'off': {
            // Stopped after a guest power-off is off already; stopped for a guest reboot is still on.
            const wasOn = p !== null && (current !== 'shutdown' || rebootPending === p);
            await stop();
            if (wasOn) poweredOff();
            return;
          }
          case 'soft-off':
            if (p && current === 'running') await p.qmp.execute('system_powerdown');
            return;
          case 'reset':
          case 'cycle':
            // As on real BMCs, a reset of a machine that is off powers it on.
            return restart();
          case 'nmi':
            if (p && current !== 'shutdown') await p.qmp.execute('inject-nmi');
            return;
        }
      }),
    bootOverride: () => ({ ...boot.override }),
    // Takes effect at the next boot, whoever triggers it (the BMC or the guest).
    setBootOverride: (change) => boot.set(change),
    virtualMedia: () => ({ ...media }),
    insertMedia(image, writeProtected = true) {
      media = { image, inserted: true, write_protected: writeProtected };
      const file = localMediaPath(image);
      // Only local image files can go into QEMU's drive; other URLs are recorded for the BMC only.
      if (file) void changeMedium(file);
    },
    ejectMedia() {
      media = { image: null, inserted: false, write_protected: true };
      void changeMedium(null);
    },
    onBoot(listener) {
      bootListeners.add(listener);
      return () => bootListeners.delete(listener);
    },
    onPowerOff(listener) {
      offListeners.add(listener);
      return () => offListeners.delete(listener);
    },
    async close() {
      closed = true;
      const p = proc;
      if (p) endedByUs.add(p);
      if (p) await p.stop(QUIT_GRACE_MS); // does not wait for queued actions: they fail fast once QMP is gone
      await chain;
      await stop();
    },
  };

  /**
   * Puts `file` (or nothing) into the running QEMU's CD drive; without QEMU it is used at the next start.
   * Best effort: the Machine contract has no way to report a failure here (QEMU's log has none either).
   */
  const changeMedium = (file: string | null) =>
    serial(async () => {
      const p = alive();
      if (!p) return;
      if (file) await p.qmp.execute('blockdev-change-medium', { id: CDROM_ID, filename: file, format: 'raw', 'read-only-mode': 'read-only' });
      else await p.qmp.execute('eject', { id: CDROM_ID, force: true });
    }).catch(() => undefined);

  return machine;
}
