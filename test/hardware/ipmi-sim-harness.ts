/**
 * Runs OpenIPMI's `ipmi_sim` (Debian package `openipmi`) as a real IPMI v2.0 BMC on 127.0.0.1 for the
 * IPMI client tests: one BMC, user 2 `admin`/`password` with ADMIN privilege, RMCP+ cipher suite 3
 * (ipmi_sim 2.0.33 has no suite 17). Power and boot device live in files written by a small
 * `chassis_control` shell program, so a test can read or change the "machine" behind the BMC.
 *
 * NOTE: ipmi_sim's chassis code (lanserv/bmc_chassis.c) maps the boot device selector to
 * chassis_control values none/pxe/default(hard disk)/cdrom/bios only: selector 3 ("safe") fails with
 * completion code 0xFF, and Get System Boot Options param 5 always answers with the valid and
 * persistent bits clear.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { boundPorts } from '../support/listening-ports.js';

/** A running ipmi_sim. */
export interface IpmiSim {
  readonly host: string;
  readonly port: number;
  readonly username: string;
  readonly password: string;
  /** Temp directory holding lan.conf, the emu file, chassis_control and its state files. */
  readonly dir: string;
  /** The machine's power as chassis_control keeps it. */
  power(): Promise<'on' | 'off'>;
  /** Sets the machine's power behind the BMC's back (an out-of-band change). */
  setPower(on: boolean): Promise<void>;
  /** Every `set` chassis_control received, oldest first (e.g. `power 1`, `boot pxe`, `shutdown 1`). */
  chassisLog(): Promise<string[]>;
  /** Kills ipmi_sim (by PID) and removes the temp directory. */
  close(): Promise<void>;
}

const INSTALL_HINT = 'ipmi_sim is not installed: apt-get install openipmi';

// State files sit beside the script; `get` prints `<parm>:<value>` per parameter, `set` prints nothing.
const CHASSIS_CONTROL = `#!/bin/sh
# chassis_control <mc addr> get power|boot ... | set power 0|1 | set reset 1 | set boot <dev> | set shutdown 1
dir=$(dirname "$0")
shift
op=$1
shift
case $op in
  get)
    for p in "$@"; do
      case $p in
        power) echo "power:$(cat "$dir/power" 2>/dev/null || echo 0)" ;;
        boot) echo "boot:$(cat "$dir/boot" 2>/dev/null || echo default)" ;;
        *) echo "Invalid parameter: $p"; exit 1 ;;
      esac
    done ;;
  set)
    while [ $# -gt 0 ]; do
      p=$1; v=$2; shift 2
      echo "$p $v" >> "$dir/chassis.log"
      case $p in
        power) echo "$v" > "$dir/power" ;;
        reset) ;;
        shutdown) if [ "$v" = 1 ]; then echo 0 > "$dir/power"; fi ;;
        boot) echo "$v" > "$dir/boot" ;;
        identify) shift ;;
        *) echo "Invalid parameter: $p"; exit 1 ;;
      esac
    done ;;
  *) echo "Unknown operation: $op"; exit 1 ;;
esac
`;

function lanConf(port: number, dir: string, username: string, password: string): string {
  return [
    'name "ingot-test"',
    'set_working_mc 0x20',
    'startlan 1',
    `  addr 127.0.0.1 ${port}`,
    '  priv_limit admin',
    '  allowed_auths_callback none md2 md5 straight',
    '  allowed_auths_user none md2 md5 straight',
    '  allowed_auths_operator none md2 md5 straight',
    '  allowed_auths_admin none md2 md5 straight',
    '  guid a123456789abcdefa123456789abcdef',
    'endlan',
    `chassis_control "${path.join(dir, 'chassis_control')} 0x20"`,
    `user 2 true "${username}" "${password}" admin 10 none md2 md5 straight`,
    '',
  ].join('\n');
}

const EMU = ['mc_setbmc 0x20', 'mc_add 0x20 0 no-device-sdrs 0x23 9 8 0x9f 0x1291 0xf02 persist_sdr', 'mc_enable 0x20', ''].join('\n');

/**
 * A UDP port of 127.0.0.1 where nothing answers: held by a socket of the test process that reads and
 * drops every datagram, so that no other process can take it while the test expects silence there.
 */
export async function silentUdpPort(): Promise<{ port: number; close(): Promise<void> }> {
  const s = createSocket('udp4');
  await new Promise<void>((resolve, reject) => {
    s.once('error', reject);
    s.bind(0, '127.0.0.1', () => resolve());
  });
  s.on('message', () => undefined);
  return { port: s.address().port, close: () => new Promise<void>((resolve) => s.close(() => resolve())) };
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * Starts ipmi_sim on a port of 127.0.0.1 it picks itself (port 0 in its lan.conf); resolves once it has
 * bound it, with the port read from /proc.
 */
export async function startIpmiSim(opts: { username?: string; password?: string } = {}): Promise<IpmiSim> {
  if (spawnSync('ipmi_sim', ['--version']).error) throw new Error(INSTALL_HINT);
  const username = opts.username ?? 'admin';
  const password = opts.password ?? 'password';
  const dir = await mkdtemp(path.join(tmpdir(), 'ingot-ipmi-sim-'));
  const script = path.join(dir, 'chassis_control');
  await writeFile(script, CHASSIS_CONTROL);
  await chmod(script, 0o755);
  await writeFile(path.join(dir, 'power'), '0\n');
  await writeFile(path.join(dir, 'emu'), EMU);
  await writeFile(path.join(dir, 'lan.conf'), lanConf(0, dir, username, password));

  let output = '';
  const child = spawn('ipmi_sim', ['-n', '-c', path.join(dir, 'lan.conf'), '-f', path.join(dir, 'emu'), '-s', dir], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr?.on('data', (b: Buffer) => (output += b.toString()));
  let spawnError: Error | undefined;
  child.once('error', (e) => (spawnError = e));

  const close = async () => {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
      await exited(child);
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };

  let port = 0;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (spawnError) {
      await close();
      throw new Error(`${INSTALL_HINT} (${spawnError.message})`);
    }
    if (child.exitCode !== null || child.signalCode !== null) {
      await close();
      throw new Error(`ipmi_sim exited during start-up (${child.exitCode ?? child.signalCode}): ${output}`);
    }
    [port = 0] = child.pid === undefined ? [] : await boundPorts(child.pid, 'udp');
    if (port > 0) break;
    if (Date.now() > deadline) {
      await close();
      throw new Error(`ipmi_sim did not bind a UDP port of 127.0.0.1 within 10 s: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }

  return {
    host: '127.0.0.1',
    port,
    username,
    password,
    dir,
    async power() {
      const v = (await readFile(path.join(dir, 'power'), 'utf8').catch(() => '0')).trim();
      return v === '1' ? 'on' : 'off';
    },
    async setPower(on) {
      await writeFile(path.join(dir, 'power'), on ? '1\n' : '0\n');
    },
    async chassisLog() {
      const text = await readFile(path.join(dir, 'chassis.log'), 'utf8').catch(() => '');
      return text.split('\n').filter((l) => l.length > 0);
    },
    close,
  };
}
