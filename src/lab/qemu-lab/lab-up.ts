/**
 * `labUp`: a lab of QEMU VMs that network-boot from a real Ingot, all inside one network namespace.
 *
 * Inside the namespace: a bridge with the lab subnet, one tap per VM, `ingot serve` (API on every
 * address, HTTP boot and TFTP on the bridge, and the dnsmasq it manages serving DHCP on the bridge) and
 * `ingot bmc` (Redfish and IPMI emulators on the bridge address, in front of the QEMU VMs it starts on
 * the taps). A veth uplink lets the host reach the API at 10.77.255.2 and the bridge subnet by a route.
 * The machines are enrolled through the API (part Redfish, part IPMI) with the `ipxe` boot interface,
 * the given deploy kernel and initramfs as file:// URLs, and a port per MAC.
 *
 * Process model: both processes are children of the caller, started in their own session (a Ctrl-C in
 * the caller's terminal does not reach them; the caller decides) with their PIDs, start times and
 * command lines recorded in `lab.json`. NOTE: where PID 1 does not reap orphans (a container
 * whose PID 1 is no init), the caller should stay up while the lab runs and call `labDown` before
 * it exits; a caller that leaves instead ({@link Lab.detach}) leaves zombies behind once the lab is
 * stopped, which are harmless but stay until the host restarts. QEMU processes are children of
 * `ingot bmc`, dnsmasq of `ingot serve`; `labDown` also finds them after those were killed.
 */
import { RAMDISK_KERNEL_PARAMS } from '../ramdisk/index.js';
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, constants as fsConstants, openSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, realpath, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { driverInfoFor, type InventoryEntry } from '../../bmc/inventory.js';
import type { LogConfig } from '../../config/log.js';
import { fail } from '../../shared/errors.js';
import { requireLabTools } from './host-tools.js';
import { LabApi, waitForApi } from './lab-api.js';
import { DEFAULT_LAB_PORTS, labDriver, labIngotConfig, labMachines, labUrls, type LabPorts } from './lab-config.js';
import { labDown } from './lab-down.js';
import { checkNetworkFree, createLabNetwork } from './lab-network.js';
import { type LabNode, type LabProcess, type LabState, writeLabState } from './lab-state.js';
import { checkNamespaceName, DEFAULT_NAMESPACE, LAB_NET, labEntries, labPaths, type LabPaths, tapName, vmMac, vmName } from './layout.js';
import { identify, procInfo } from './processes.js';

/** A progress line for the operator. */
export type LabLog = (line: string) => void;

/** How to bring a lab up. */
export interface LabUpOptions {
  /** The lab directory (created; it must not hold a lab already). */
  dir: string;
  /** The command that runs Ingot, e.g. `[process.execPath, '/opt/ingot/bin/ingot.js']`. */
  ingot: readonly string[];
  /** Deploy kernel (bzImage) the machines network-boot; copied into the lab. */
  kernel: string;
  /** Deploy initramfs; copied into the lab. */
  initramfs: string;
  /** Number of VMs, 1-99; default 2. */
  machines?: number;
  /** Share of machines enrolled with the `redfish` driver (the rest `ipmi`), 0-1; default 0.5. */
  redfishShare?: number;
  /** VM memory; default 768 MiB (a Node ramdisk needs at least 512). */
  memoryMib?: number;
  /** VM disk size; default 4 GiB (sparse): the agent, like IPA, installs only on a disk of at least 4 GiB without root device hints. */
  diskGib?: number;
  /** QEMU's accelerator; default tcg (`probeAccel` tells whether kvm works here). */
  accel?: 'tcg' | 'kvm';
  /** Network namespace, `ingot-lab…`; default `ingot-lab`. */
  namespace?: string;
  /** Fast track for every node: the agent keeps running after inspection and cleaning, the next phase uses it. */
  fastTrack?: boolean;
  /** Take the nodes to `manageable` (through their BMCs) instead of leaving them in `enroll`. */
  manage?: boolean;
  ports?: Partial<LabPorts>;
  /** BMC credentials of every VM; default admin / password. */
  username?: string;
  password?: string;
  /** Log level of the lab's `ingot serve` and `ingot bmc`; default info. */
  logLevel?: LogConfig['level'];
  /** Longest wait for each process to come up and for `manage`; default 60 s. */
  startTimeoutMs?: number;
  log?: LabLog;
  signal?: AbortSignal;
}

/** A lab that is up. */
export interface Lab {
  state: LabState;
  paths: LabPaths;
  /** Resolves when `ingot serve` or `ingot bmc` ends (they are this process's children). */
  exited: Promise<{ role: LabProcess['role']; code: number | null; signal: NodeJS.Signals | null }>;
  /** Lets this process exit while the lab runs on (see the module doc for the cost on these hosts). */
  detach(): void;
}

/**
 * The kernel parameters of the lab's ramdisk: a serial console, no_timer_check (TCG guests panic without
 * it now and then, lab-facts.md), and `pci=noacpi`: the lab's machines (QEMU `pc`, BIOS) route PCI
 * interrupts through SeaBIOS's PIR table instead of ACPI interrupt links, whose AML the kernel evaluates
 * slowly under TCG (loading virtio_pci took 0.77 s with ACPI routing, under 0.1 s without; ata_piix
 * 0.3 s → under 0.1 s). Not for real servers, whose PCI needs ACPI.
 */
export const LAB_KERNEL_APPEND_PARAMS = `${RAMDISK_KERNEL_PARAMS} pci=noacpi`;

/**
 * The kernel the lab's ramdisk and test image run by default: Debian's cloud flavour, made for virtual
 * machines. Its LZ4-compressed bzImage starts in ~1 s under QEMU's TCG where the generic kernel's
 * XZ-compressed one needs ~5 s, for every network boot and every boot of the deployed OS. It has the
 * virtio, PIIX and NVMe drivers the lab's machines use but no e1000; `--kernel-package
 * linux-image-amd64` gives the generic kernel that real servers boot.
 */
export const LAB_KERNEL_PACKAGE = 'linux-image-cloud-amd64';

/** The default VM disk size: the smallest disk the agent picks as its root disk without root device hints (IPA's rule). */
export const DEFAULT_LAB_DISK_GIB = 4;

const MAX_MACHINES = 99; // the DHCP range holds 100 addresses

/** Brings the lab up (see the module doc); on failure it removes what it created and rethrows. */
export async function labUp(opts: LabUpOptions): Promise<Lab> {
  const log = opts.log ?? (() => undefined);
  const machines = opts.machines ?? 2;
  const share = opts.redfishShare ?? 0.5;
  const ns = checkNamespaceName(opts.namespace ?? DEFAULT_NAMESPACE);
  const ports: LabPorts = { ...DEFAULT_LAB_PORTS, ...opts.ports };
  const timeoutMs = opts.startTimeoutMs ?? 60_000;
  if (!Number.isInteger(machines) || machines < 1 || machines > MAX_MACHINES) throw fail('labMachineCountInvalid', { max: MAX_MACHINES, machines });
  if (!(share >= 0 && share <= 1)) throw fail('labRedfishShareInvalid', { share });
  if (opts.ingot.length === 0) throw fail('labIngotCommandMissing');
  requireLabTools();
  for (const [what, file] of [['kernel', opts.kernel], ['initramfs', opts.initramfs]] as const) {
    const st = await stat(file).catch(() => undefined);
    if (!st?.isFile()) throw fail('labDeployFileMissing', { part: what, file });
  }

  await mkdir(opts.dir, { recursive: true });
  const paths = labPaths(await realpath(opts.dir));
  const present = new Set(await readdir(paths.dir));
  const left = labEntries(paths).filter((e) => present.has(path.basename(e)));
  if (left.length > 0) throw fail('labDirInUse', { dir: paths.dir, entries: left.map((e) => path.basename(e)).join(', ') });
  await checkNetworkFree(ns);

  const started = Date.now();
  const secs = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  const urls = labUrls(ports);
  const username = opts.username ?? 'admin';
  const password = opts.password ?? 'password';
  const children: { role: LabProcess['role']; child: ChildProcess }[] = [];

  const net = await createLabNetwork(ns, machines);
  const state: LabState = {
    version: 1,
    dir: paths.dir,
    created_at: new Date().toISOString(),
    namespace: ns,
    bridge: net.bridge,
    taps: net.taps,
    veth: net.veth,
    addresses: {
      bridge: `${LAB_NET.bridgeAddress}/${LAB_NET.bridgePrefix}`,
      bridge6: LAB_NET.bridgeAddress6,
      host_uplink: `${LAB_NET.hostUplinkAddress}/${LAB_NET.uplinkPrefix}`,
      lab_uplink: `${LAB_NET.labUplinkAddress}/${LAB_NET.uplinkPrefix}`,
      subnet: LAB_NET.subnet,
      dhcp_range: [LAB_NET.rangeStart, LAB_NET.rangeEnd],
    },
    ports,
    urls: { api: `http://${LAB_NET.labUplinkAddress}:${ports.api}`, api_in_lab: urls.api, boot: urls.boot, redfish: urls.redfish },
    processes: [],
    nodes: Array.from({ length: machines }, (_, i): LabNode => ({
      name: vmName(i),
      uuid: null,
      driver: labDriver(i, machines, share),
      macs: [vmMac(i)],
      tap: tapName(i),
      serial_log: path.join(paths.vmDir, vmName(i), 'serial.log'),
      disk: path.join(paths.vmDir, `${vmName(i)}.img`),
    })),
    files: {
      config: paths.ingotConfig, machines: paths.machines, inventory: paths.inventory, kernel: paths.kernel, initramfs: paths.initramfs,
      data_dir: paths.dataDir, vm_dir: paths.vmDir, logs: paths.logDir,
    },
  };
  const save = () => writeLabState(paths.state, state);
  try {
    await save();
    log(`lab: namespace ${ns} with bridge ${net.bridge} (${LAB_NET.bridgeAddress}/${LAB_NET.bridgePrefix}), ${machines} tap(s), uplink ${net.veth.host} (${LAB_NET.hostUplinkAddress}) ↔ ${LAB_NET.labUplinkAddress} (${secs()})`);
    await Promise.all([mkdir(paths.deployDir, { recursive: true }), mkdir(paths.logDir, { recursive: true }), mkdir(paths.vmDir, { recursive: true })]);
    // A reflink where the file system has them, a copy elsewhere.
    await copyFile(opts.kernel, paths.kernel, fsConstants.COPYFILE_FICLONE);
    await copyFile(opts.initramfs, paths.initramfs, fsConstants.COPYFILE_FICLONE);
    const logLevel = opts.logLevel ?? 'info';
    await writeFile(paths.ingotConfig, `${JSON.stringify(labIngotConfig({ labDir: paths.dir, dataDir: paths.dataDir, vmDir: paths.vmDir, ports, logLevel, fastTrack: opts.fastTrack === true }), null, 2)}\n`);
    await writeFile(paths.machines, `${JSON.stringify(labMachines({ machines, memoryMib: opts.memoryMib ?? 768, diskGib: opts.diskGib ?? DEFAULT_LAB_DISK_GIB, username, password, accel: opts.accel ?? 'tcg' }), null, 2)}\n`);

    const serveArgv = [...opts.ingot, 'serve', '--config', paths.ingotConfig];
    const bmcArgv = [
      ...opts.ingot, 'bmc', '--machines', paths.machines, '--host', LAB_NET.bridgeAddress, '--redfish-port', String(ports.redfish),
      '--ipmi-port-base', String(ports.ipmiBase), '--disk-dir', paths.vmDir, '--inventory', paths.inventory, '--log-level', logLevel,
    ];
    for (const [role, argv, logFile] of [['serve', serveArgv, paths.serveLog], ['bmc', bmcArgv, paths.bmcLog]] as const) {
      const child = await spawnInNamespace(ns, argv, logFile);
      children.push({ role, child });
      const info = await procInfo(child.pid!);
      // Recorded as it will read once ip has exec'd it (the PID and start time stay the same).
      state.processes.push({ role, pid: child.pid!, cmdline: argv.join(' '), start_ticks: info?.startTicks ?? null, log: logFile });
    }
    await save();

    const exitNote = (role: LabProcess['role']) => {
      const c = children.find((x) => x.role === role)?.child;
      return c && (c.exitCode !== null || c.signalCode !== null) ? `exit ${c.exitCode ?? c.signalCode}; see ${role === 'serve' ? paths.serveLog : paths.bmcLog}` : undefined;
    };
    const [, inventory] = await Promise.all([
      waitForApi(state.urls.api, timeoutMs, () => exitNote('serve'), opts.signal),
      waitForInventory(paths.inventory, timeoutMs, () => exitNote('bmc'), opts.signal),
    ]);
    for (const p of state.processes) {
      const now = await identify(p.pid);
      if (now) Object.assign(p, { cmdline: now.cmdline, start_ticks: now.start_ticks });
    }
    await save();
    log(`lab: ingot serve (PID ${pidOf(state, 'serve')}) answers at ${state.urls.api}; ingot bmc (PID ${pidOf(state, 'bmc')}) serves Redfish at ${urls.redfish}, IPMI on ${LAB_NET.bridgeAddress}:${ports.ipmiBase}+ (${secs()})`);

    const api = new LabApi(state.urls.api, opts.signal);
    for (const node of state.nodes) {
      const entry = inventory.find((e) => e.name === node.name);
      if (!entry) throw fail('labBmcMachineMissing', { machine: node.name, log: paths.bmcLog });
      const created = await api.call<{ uuid: string }>('POST', '/v1/nodes', {
        name: node.name,
        driver: node.driver,
        boot_interface: 'ipxe',
        deploy_interface: 'direct',
        inspect_interface: 'agent',
        driver_info: {
          ...driverInfoFor(entry, node.driver),
          deploy_kernel: `file://${paths.kernel}`,
          deploy_ramdisk: `file://${paths.initramfs}`,
          kernel_append_params: LAB_KERNEL_APPEND_PARAMS,
        },
      });
      node.uuid = created.uuid;
      for (const mac of node.macs) await api.call('POST', '/v1/ports', { node_uuid: created.uuid, address: mac, pxe_enabled: true });
      await save();
    }
    log(`lab: enrolled ${state.nodes.map((n) => `${n.name} (${n.driver})`).join(', ')} with their ports (${secs()})`);
    if (opts.manage) {
      await Promise.all(state.nodes.map(async (n) => {
        await api.call('PUT', `/v1/nodes/${n.uuid}/states/provision`, { target: 'manage' });
        await api.waitNode(n.uuid!, (v) => v.provision_state === 'manageable' && v.reservation === null, timeoutMs);
      }));
      log(`lab: nodes manageable through their BMCs (${secs()})`);
    }
  } catch (err) {
    log(`lab: bringing the lab up failed (${(err as Error).message}); removing it`);
    await labDown({ dir: paths.dir, log }).catch((downErr: unknown) => log(`lab: removing the failed lab failed too: ${(downErr as Error).message}`));
    throw err;
  }

  const exited = new Promise<{ role: LabProcess['role']; code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    for (const { role, child } of children) {
      if (child.exitCode !== null || child.signalCode !== null) resolve({ role, code: child.exitCode, signal: child.signalCode });
      else child.once('exit', (code, signal) => resolve({ role, code, signal }));
    }
  });
  return {
    state,
    paths,
    exited,
    detach: () => {
      for (const { child } of children) child.unref();
    },
  };
}

function pidOf(state: LabState, role: LabProcess['role']): number | undefined {
  return state.processes.find((p) => p.role === role)?.pid;
}

/**
 * Starts `argv` inside namespace `ns` (`ip netns exec` execs it: the PID is the command's) in its own
 * session, with stdout and stderr appended to `logFile` and no INGOT_* variables of the caller's
 * environment (they would override the lab's configuration file).
 */
async function spawnInNamespace(ns: string, argv: readonly string[], logFile: string): Promise<ChildProcess> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('INGOT_')));
  const fd = openSync(logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn('ip', ['netns', 'exec', ns, ...argv], { detached: true, stdio: ['ignore', fd, fd], env });
  } finally {
    closeSync(fd);
  }
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (err) => reject(fail('labSpawnFailed', { command: argv.join(' '), namespace: ns, reason: err.message })));
  });
  return child;
}

/** The inventory `ingot bmc` writes once its emulators listen. */
async function waitForInventory(file: string, timeoutMs: number, gone: () => string | undefined, signal?: AbortSignal): Promise<InventoryEntry[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    signal?.throwIfAborted();
    const text = await readFile(file, 'utf8').catch(() => '');
    if (text.trim().endsWith(']')) {
      try {
        return JSON.parse(text) as InventoryEntry[];
      } catch {
        // being written
      }
    }
    const why = gone();
    if (why) throw fail('labBmcStopped', { reason: why });
    if (Date.now() > deadline) throw fail('labBmcNoInventory', { file, seconds: timeoutMs / 1000 });
    await new Promise((r) => setTimeout(r, 100));
  }
}
