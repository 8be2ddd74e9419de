/**
 * Whether KVM can run the lab's machines. `/dev/kvm` can exist and still run only specially built guest
 * kernels (a software nested-virtualisation layer: Debian's kernels hang or crash under it; docs/lab.md),
 * so its presence proves nothing: the probe boots the lab's test image with the accelerator asked for and
 * waits for the image's marker on the serial console. Used by `ingot lab up --accel auto`.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { fail } from '../../shared/errors.js';
import { findProgram } from '../build/build-tools.js';
import { TEST_IMAGE_BOOTED_MARKER } from '../test-image/index.js';
import { LAB_TOOLS } from './host-tools.js';

const QEMU = LAB_TOOLS.find((t) => t.name === 'qemu-system-x86_64')!;

/** What the probe found. */
export interface AccelProbe {
  accel: 'tcg' | 'kvm';
  usable: boolean;
  /** Why not, or how long the boot to the marker took. */
  detail: string;
  seconds: number;
}

export interface AccelProbeOptions {
  /** A bootable test image (`ingot image build-test`); booted read-only (snapshot). */
  image: string;
  /** Default `kvm`; `tcg` checks the probe itself. */
  accel?: 'tcg' | 'kvm';
  /** Longest wait for the marker; default 20 s (a KVM boot takes a few seconds). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Boots `image` with the accelerator and reports whether its marker came (see the module doc). Never throws for a failed boot. */
export async function probeAccel(opts: AccelProbeOptions): Promise<AccelProbe> {
  const accel = opts.accel ?? 'kvm';
  const started = Date.now();
  const result = (usable: boolean, detail: string): AccelProbe => ({ accel, usable, detail, seconds: (Date.now() - started) / 1000 });
  if (accel === 'kvm') {
    try {
      accessSync('/dev/kvm', constants.R_OK | constants.W_OK);
    } catch {
      return result(false, '/dev/kvm is missing or not usable');
    }
  }
  const qemu = findProgram(QEMU.name);
  if (!qemu) throw fail('labToolMissing', { tool: QEMU.name, hint: QEMU.hint });
  const child = spawn(qemu, [
    '-accel', accel, '-m', '256', '-nodefaults', '-no-user-config', '-display', 'none', '-no-reboot',
    '-serial', 'stdio', '-monitor', 'none', '-drive', `file=${opts.image},format=raw,if=virtio,snapshot=on`,
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  return new Promise<AccelProbe>((resolve) => {
    let done = false;
    const finish = (probe: AccelProbe) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', abort);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      resolve(probe);
    };
    const onData = (d: Buffer) => {
      text += d.toString('latin1');
      if (text.includes(TEST_IMAGE_BOOTED_MARKER)) finish(result(true, `booted the test image in ${((Date.now() - started) / 1000).toFixed(1)} s`));
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('error', (err) => finish(result(false, `cannot start QEMU: ${err.message}`)));
    child.once('exit', (code, sig) => {
      const last = text.trim().split('\n').slice(-1)[0]?.slice(0, 200) ?? '';
      finish(result(false, `QEMU ended (${sig ?? `exit ${code}`}) before the test image booted${last ? `: ${last}` : ''}`));
    });
    const timeoutMs = opts.timeoutMs ?? 20_000;
    const timer = setTimeout(() => finish(result(false, `the test image did not boot within ${timeoutMs / 1000} s`)), timeoutMs);
    const abort = () => finish(result(false, 'interrupted'));
    opts.signal?.addEventListener('abort', abort, { once: true });
  });
}
