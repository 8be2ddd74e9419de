/**
 * The lab's commands as an operator runs them: `ingot ramdisk build` and `ingot image build-test`
 * (answered from the build cache the other lab tests fill), and `ingot lab up` in the foreground with
 * `ingot lab status` beside it, taken down by Ctrl-C (SIGINT) without leaving a process, namespace or
 * file behind. The machines' "kernel" is an iPXE script (see lab-network.test.ts): this file proves
 * the commands, not the boot.
 *
 * Needs root, iproute2, QEMU and dnsmasq (fails with install hints otherwise) and the built dist/.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labDown, probeAccel, requireLabTools } from '../../src/lab/qemu-lab/index.js';
import { REPO_ROOT } from '../support/server.js';
import { labProcesses, namespaces } from './lab-host.js';

const run = promisify(execFile);
const BIN = path.join(REPO_ROOT, 'bin', 'ingot.js');
const NS = 'ingot-lab-cli';
const CACHE = path.join(tmpdir(), 'ingot-lab-cache');

let base: string;
let up: ChildProcess | undefined;

const ingot = (...args: string[]) => run(process.execPath, [BIN, ...args], { cwd: base, timeout: 280_000, maxBuffer: 16 * 1024 * 1024 });

beforeAll(async () => {
  requireLabTools();
  if (!existsSync(path.join(REPO_ROOT, 'dist', 'ingot.mjs'))) throw new Error('dist/ingot.mjs is missing: run `npm run build` first');
  base = await mkdtemp(path.join(tmpdir(), 'ingot-lab-cli-'));
});

afterAll(async () => {
  if (up && up.exitCode === null && up.signalCode === null) up.kill('SIGKILL');
  await labDown({ dir: path.join(base, 'lab'), namespace: NS, force: true, graceMs: 5000 }).catch((err: unknown) => process.stderr.write(`labDown: ${String(err)}\n`));
  await rm(base, { recursive: true, force: true });
}, 120_000);

describe('ingot ramdisk build and ingot image build-test', () => {
  it('writes the deploy kernel and initramfs and reports them as JSON; a second build comes from the cache with the same bytes', async () => {
    const first = JSON.parse((await ingot('ramdisk', 'build', '--out-dir', 'rd1', '--cache-dir', CACHE, '--json')).stdout) as Record<string, unknown>;
    expect(first).toMatchObject({ kernel: path.join(base, 'rd1', 'ingot-agent.kernel'), initramfs: path.join(base, 'rd1', 'ingot-agent.initramfs') });
    expect(first.sizeBytes).toBe((await readFile(first.initramfs as string)).length);
    const second = JSON.parse((await ingot('ramdisk', 'build', '--out-dir', 'rd2', '--cache-dir', CACHE, '--json')).stdout) as Record<string, unknown>;
    expect(second).toMatchObject({ cached: true, inputsHash: first.inputsHash });
    const digest = async (f: string) => createHash('sha256').update(await readFile(f)).digest('hex');
    expect(await digest(second.initramfs as string)).toBe(await digest(first.initramfs as string));
  });

  it('builds the test image at the size asked for', async () => {
    const { stdout } = await ingot('image', 'build-test', '--out', 'test.img', '--size-mib', '48', '--cache-dir', CACHE);
    expect(stdout).toMatch(/^test image: .*test\.img \(48 MiB raw, Linux \S+\) in [\d.]+ s$/m);
    const mbr = (await readFile(path.join(base, 'test.img'))).subarray(0, 512);
    expect(mbr.readUInt16LE(510)).toBe(0xaa55);
  });

  it('probes an accelerator by booting the test image: TCG boots it, a disk without a boot loader does not', async () => {
    const works = await probeAccel({ image: path.join(base, 'test.img'), accel: 'tcg', timeoutMs: 120_000 });
    expect(works).toMatchObject({ accel: 'tcg', usable: true });
    expect(works.detail).toMatch(/^booted the test image in [\d.]+ s$/);
    const blank = path.join(base, 'blank.img');
    await writeFile(blank, Buffer.alloc(1024 * 1024));
    const fails = await probeAccel({ image: blank, accel: 'tcg', timeoutMs: 8000 });
    expect(fails).toMatchObject({ accel: 'tcg', usable: false });
    expect(fails.detail).toMatch(/did not boot within 8 s|QEMU ended/);
    // KVM: whatever this host says, it says why, and within the probe's 20 s.
    const kvm = await probeAccel({ image: path.join(base, 'test.img') });
    process.stderr.write(`lab-cli: KVM probe: ${kvm.usable ? 'usable' : 'not usable'} (${kvm.detail})\n`);
    expect(kvm.detail).not.toBe('');
    expect(kvm.seconds).toBeLessThan(30);
  }, 240_000);

  it('names the flag that is wrong', async () => {
    const err = await ingot('image', 'build-test', '--out', 'x.img', '--size-mib', 'big').then(() => null, (e: { stderr: string }) => e);
    expect(err?.stderr).toMatch(/--size-mib must be a whole number/);
  });
});

describe('ingot lab up / status / down', () => {
  it('runs in the foreground, shows its status beside it, and Ctrl-C takes everything down', async () => {
    const kernel = path.join(base, 'kernel');
    const initramfs = path.join(base, 'initramfs');
    await writeFile(kernel, '#!ipxe\necho not booted in this test\n');
    await writeFile(initramfs, Buffer.alloc(4096));
    const dir = path.join(base, 'lab');
    up = spawn(process.execPath, [BIN, 'lab', 'up', '--dir', dir, '--kernel', kernel, '--initramfs', initramfs, '--machines', '1', '--namespace', NS, '--no-test-image', '--manage'], {
      cwd: base, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    up.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    up.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => up!.once('exit', (code) => resolve(code)));
    const deadline = Date.now() + 120_000;
    while (!output.includes('Ctrl-C takes the lab down')) {
      if (up.exitCode !== null || Date.now() > deadline) throw new Error(`ingot lab up did not come up:\n${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(output).toMatch(/lab: nodes manageable through their BMCs/);
    const accel = /lab: KVM (?:works|is not usable) \(.+\); the machines run with (kvm|tcg)/.exec(output)?.[1];
    expect(accel, output).toBeDefined();
    expect(JSON.parse(await readFile(path.join(dir, 'machines.json'), 'utf8'))).toMatchObject([{ name: 'lab-1', accel }]);
    expect(output).toContain('export OS_ENDPOINT=http://10.77.255.2:6385 OS_AUTH_TYPE=none');
    expect(namespaces()).toContain(NS);

    const status = JSON.parse((await ingot('lab', 'status', '--dir', dir, '--json')).stdout) as {
      namespaceExists: boolean; processes: { role: string; alive: boolean }[]; nodes: { name: string; driver: string; provision_state: string }[];
    };
    expect(status.namespaceExists).toBe(true);
    expect(status.processes.map((p) => [p.role, p.alive])).toEqual([['serve', true], ['bmc', true]]);
    expect(status.nodes).toMatchObject([{ name: 'lab-1', driver: 'redfish', provision_state: 'manageable' }]);
    expect((await ingot('lab', 'status', '--dir', dir)).stdout).toMatch(/lab-1 .*redfish.*manageable/);

    up.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(output).toMatch(/lab: interrupted \(SIGINT\); taking the lab down/);
    expect(output).toMatch(/lab: down — \d+ process\(es\) stopped, namespace ingot-lab-cli deleted/);
    expect(namespaces()).not.toContain(NS);
    expect(existsSync(path.join(dir, 'lab.json'))).toBe(false);
    expect(await labProcesses(dir)).toEqual([]);
    const gone = await ingot('lab', 'status', '--dir', dir).then(() => null, (e: { stderr: string; code: number }) => e);
    expect(gone?.stderr).toMatch(/No lab in .*start one with ingot lab up/);
  }, 240_000);
});
