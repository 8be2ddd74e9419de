/**
 * Starts sushy-tools' Redfish emulator (`sushy-emulator`) with its fake systems driver, from a source tree
 * named by `INGOT_SUSHY_TOOLS_DIR`, on Debian's /usr/bin/python3: bound to 127.0.0.1 on a port it picks,
 * over HTTPS with a fresh self-signed certificate, HTTP basic authentication from an htpasswd file (bcrypt),
 * and its state in a temporary directory (its default would be a shared one under /tmp).
 *
 * The source is not part of the repository: the peer tests (`npm run test:peers`) fail with
 * {@link sushyToolsHint} when the directory is not set or not a sushy-tools tree.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { selfSignedCertificate } from '../../src/bmc/redfish/emulator.js';

/** The sushy-tools release the peer tests were written against (its requirements are all in Debian 12). */
export const SUSHY_TOOLS_TAG = '1.3.0';

/** Debian's packages sushy-emulator 1.3.0 runs on (ironic-lib brings its basic authentication). */
export const SUSHY_DEBIAN_PACKAGES = ['python3-flask', 'python3-requests', 'python3-tenacity', 'python3-ironic-lib', 'python3-bcrypt'];

/** Debian's interpreter: `python3` on PATH may be another one without those packages. */
const PYTHON = '/usr/bin/python3';

/** How to get what the peer tests need. */
export function sushyToolsHint(problem: string): string {
  return [
    problem,
    `The sushy-tools tests run sushy-emulator from its source: set INGOT_SUSHY_TOOLS_DIR to the root of a checkout or an`,
    `extracted archive of openstack/sushy-tools at tag ${SUSHY_TOOLS_TAG} (the directory holding setup.cfg and sushy_tools/),`,
    `e.g. \`git --git-dir=<clone>/.git archive ${SUSHY_TOOLS_TAG} | tar -x -C /tmp/sushy-tools\`, and install its dependencies`,
    `from Debian: apt-get install ${SUSHY_DEBIAN_PACKAGES.join(' ')}.`,
  ].join('\n');
}

/**
 * The sushy-tools source directory of `INGOT_SUSHY_TOOLS_DIR`, after checking that it holds the emulator
 * and its fake driver and that Debian's Python has the emulator's dependencies. Throws the hint otherwise.
 */
export function sushyToolsDir(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env['INGOT_SUSHY_TOOLS_DIR']?.trim();
  if (!dir) throw new Error(sushyToolsHint('INGOT_SUSHY_TOOLS_DIR is not set.'));
  for (const file of ['sushy_tools/emulator/main.py', 'sushy_tools/emulator/resources/systems/fakedriver.py']) {
    if (!existsSync(path.join(dir, file))) {
      throw new Error(sushyToolsHint(`INGOT_SUSHY_TOOLS_DIR=${dir} is not a sushy-tools source tree: ${file} is missing.`));
    }
  }
  if (!existsSync(PYTHON)) throw new Error(sushyToolsHint(`${PYTHON} is missing.`));
  const probe = spawnSync(PYTHON, ['-c', 'import flask, requests, tenacity, ironic_lib.auth_basic, bcrypt'], { env: pythonEnv(dir), encoding: 'utf8' });
  if (probe.status !== 0) {
    throw new Error(sushyToolsHint(`Debian's Python lacks a dependency of sushy-emulator: ${probe.stderr.trim().split('\n').at(-1) ?? probe.error?.message}`));
  }
  return dir;
}

/** One system of the fake driver (SUSHY_EMULATOR_FAKE_SYSTEMS). */
export interface FakeSystem {
  uuid: string;
  name: string;
  power_state: 'On' | 'Off';
  nics: { mac: string }[];
}

/** A drive of a system's storage (SUSHY_EMULATOR_STORAGE / SUSHY_EMULATOR_DRIVES). */
export interface FakeDrive {
  id: string;
  capacityBytes: number;
}

export interface SushyOptions {
  systems: FakeSystem[];
  /** Drives of one storage controller per system UUID. */
  drives?: Record<string, FakeDrive[]>;
  /** The one user of the htpasswd file. */
  username: string;
  password: string;
}

/** A running sushy-emulator. */
export interface RunningSushy {
  /** `https://127.0.0.1:<port>` */
  url: string;
  /** The PEM certificate it serves (its own trust anchor). */
  certificate: string;
  /** Path of that certificate, for driver_info redfish_verify_ca. */
  caFile: string;
  /** Everything it wrote so far (its request log). */
  output(): string;
  close(): Promise<void>;
}

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Starts sushy-emulator with the fake driver; resolves once it prints where it listens. */
export async function startSushyEmulator(opts: SushyOptions, timeoutMs = 30_000): Promise<RunningSushy> {
  const source = sushyToolsDir();
  const dir = await mkdtemp(path.join(tmpdir(), 'ingot-sushy-'));
  try {
    const tls = await selfSignedCertificate('127.0.0.1');
    const caFile = path.join(dir, 'cert.pem');
    await writeFile(caFile, tls.cert);
    await writeFile(path.join(dir, 'key.pem'), tls.key, { mode: 0o600 });
    await writeFile(path.join(dir, 'htpasswd'), `${opts.username}:${bcryptHash(opts.password, source)}\n`, { mode: 0o600 });
    const config = path.join(dir, 'emulator.conf');
    await writeFile(config, configFile(dir, opts));

    installExitHook();
    const proc = spawn(PYTHON, ['-m', 'sushy_tools.emulator.main', '--config', config], {
      cwd: source, env: { ...pythonEnv(source), SUSHY_EMULATOR_CONFIG: config }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    live.add(proc);
    const out: string[] = [];
    const keep = (c: Buffer) => {
      out.push(c.toString('utf8'));
      if (out.length > 4000) out.splice(0, out.length - 2000);
    };
    proc.stdout.on('data', keep);
    proc.stderr.on('data', keep);
    const exited = new Promise<void>((resolve) => proc.once('exit', () => {
      live.delete(proc);
      resolve();
    }));
    const url = await listening(proc, out, exited, timeoutMs);
    let closing: Promise<void> | undefined;
    return {
      url,
      certificate: tls.cert,
      caFile,
      output: () => out.join(''),
      close: () => {
        closing ??= (async () => {
          if (live.has(proc)) proc.kill('SIGTERM');
          const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
          await exited;
          clearTimeout(timer);
          await rm(dir, { recursive: true, force: true });
        })();
        return closing;
      },
    };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

/** The environment for Debian's Python: none of the caller's Python settings, the source on the path. */
function pythonEnv(source: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('PYTHON') || k.startsWith('PYENV') || k === 'VIRTUAL_ENV' || k.startsWith('SUSHY_') || k.startsWith('OS_')) continue;
    env[k] = v;
  }
  env['PYTHONPATH'] = source;
  env['PYTHONDONTWRITEBYTECODE'] = '1';
  return env;
}

/** A bcrypt digest of `password` (the only kind the htpasswd check of sushy-emulator accepts). */
function bcryptHash(password: string, source: string): string {
  const r = spawnSync(PYTHON, ['-c', 'import bcrypt, sys; print(bcrypt.hashpw(sys.stdin.read().encode(), bcrypt.gensalt(rounds=4)).decode())'], {
    input: password, env: pythonEnv(source), encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`bcrypt digest failed: ${r.stderr}`);
  return r.stdout.trim();
}

/** The emulator's configuration (a Python file read by Flask's `from_pyfile`). */
function configFile(dir: string, opts: SushyOptions): string {
  const storage: Record<string, unknown> = {};
  const drives: [string, unknown][] = [];
  for (const [uuid, list] of Object.entries(opts.drives ?? {})) {
    storage[uuid] = [{ Id: '1', Name: 'Local Storage Controller', StorageControllers: [{ MemberId: '0', Name: 'RAID', SpeedGbps: 12 }], Drives: list.map((d) => d.id) }];
    drives.push([py([uuid, '1'], true), list.map((d) => ({ Id: d.id, Name: `Drive ${d.id}`, CapacityBytes: d.capacityBytes, Protocol: 'SAS' }))]);
  }
  const lines = [
    '# Written by the Ingot peer tests.',
    `SUSHY_EMULATOR_LISTEN_IP = ${py('127.0.0.1')}`,
    'SUSHY_EMULATOR_LISTEN_PORT = 0',
    'SUSHY_EMULATOR_FAKE_DRIVER = True',
    `SUSHY_EMULATOR_STATE_DIR = ${py(path.join(dir, 'state'))}`,
    `SUSHY_EMULATOR_SSL_CERT = ${py(path.join(dir, 'cert.pem'))}`,
    `SUSHY_EMULATOR_SSL_KEY = ${py(path.join(dir, 'key.pem'))}`,
    `SUSHY_EMULATOR_AUTH_FILE = ${py(path.join(dir, 'htpasswd'))}`,
    `SUSHY_EMULATOR_FAKE_SYSTEMS = ${py(opts.systems.map((s) => ({ ...s, external_notifier: false })))}`,
    `SUSHY_EMULATOR_STORAGE = ${py(storage)}`,
    `SUSHY_EMULATOR_DRIVES = {${drives.map(([k, v]) => `${k}: ${py(v)}`).join(', ')}}`,
    'SUSHY_EMULATOR_VMEDIA_VERIFY_SSL = False',
  ];
  return lines.join('\n') + '\n';
}

/** A Python literal of JSON-like data (`tuple` renders an array as a tuple). */
function py(value: unknown, tuple = false): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return tuple ? `(${value.map((v) => py(v)).join(', ')},)` : `[${value.map((v) => py(v)).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>).map(([k, v]) => `${JSON.stringify(k)}: ${py(v)}`).join(', ')}}`;
}

async function listening(proc: ChildProcess, out: string[], exited: Promise<void>, timeoutMs: number): Promise<string> {
  const line = /Running on (https:\/\/127\.0\.0\.1:\d+)/;
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const m = line.exec(out.join(''));
    if (m?.[1]) return m[1];
    if (gone) throw new Error(`sushy-emulator exited before listening:\n${out.join('').slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  proc.kill('SIGKILL');
  throw new Error(`sushy-emulator did not say where it listens within ${timeoutMs} ms:\n${out.join('').slice(-4000)}`);
}

/** The emulator must never outlive the test process. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const proc of live) proc.kill('SIGKILL');
  });
}
