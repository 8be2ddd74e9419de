/**
 * Where a lab keeps its files (all under one directory) and the addresses and interface names of its
 * network. The layout is fixed, so `labDown` can remove a lab whose `lab.json` was lost.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fail } from '../../shared/errors.js';

/** The files and directories of a lab under its directory. */
export interface LabPaths {
  dir: string;
  /** What `labUp` created: {@link LabState}. */
  state: string;
  /** The configuration file of the lab's `ingot serve`. */
  ingotConfig: string;
  /** `ingot serve`'s data directory (SQLite, HTTP root, DHCP files, image cache). */
  dataDir: string;
  /** The machines file of the lab's `ingot bmc`. */
  machines: string;
  /** The inventory `ingot bmc` writes. */
  inventory: string;
  /** The VMs' disks and per-VM directories (`<name>/serial.log`). */
  vmDir: string;
  /** stdout and stderr of the lab's processes. */
  logDir: string;
  serveLog: string;
  bmcLog: string;
  /** The deploy kernel and initramfs the nodes boot, copied here (their file:// URLs point here). */
  deployDir: string;
  kernel: string;
  initramfs: string;
  /** Images to deploy: `ingot lab up` puts the test image here (file:// URLs under the lab are allowed). */
  imagesDir: string;
  testImage: string;
}

/** The paths of the lab in `dir` (made absolute). */
export function labPaths(dir: string): LabPaths {
  const abs = path.resolve(dir);
  const logDir = path.join(abs, 'logs');
  const deployDir = path.join(abs, 'deploy');
  return {
    dir: abs,
    state: path.join(abs, 'lab.json'),
    ingotConfig: path.join(abs, 'ingot-config.json'),
    dataDir: path.join(abs, 'ingot'),
    machines: path.join(abs, 'machines.json'),
    inventory: path.join(abs, 'inventory.json'),
    vmDir: path.join(abs, 'vms'),
    logDir,
    serveLog: path.join(logDir, 'ingot-serve.log'),
    bmcLog: path.join(logDir, 'ingot-bmc.log'),
    deployDir,
    kernel: path.join(deployDir, 'kernel'),
    initramfs: path.join(deployDir, 'initramfs'),
    imagesDir: path.join(abs, 'images'),
    testImage: path.join(abs, 'images', 'test.img'),
  };
}

/** Every entry of the layout directly under the lab directory, for removal. */
export function labEntries(p: LabPaths): string[] {
  return [p.ingotConfig, p.dataDir, p.machines, p.inventory, p.vmDir, p.logDir, p.deployDir, p.imagesDir, p.state];
}

/**
 * The lab's addresses. One lab per host: the host end of the uplink owns {@link LAB_NET.hostUplink}
 * and the route to the lab subnet.
 */
export const LAB_NET = {
  /** The bridge inside the namespace the VMs' taps are plugged into. */
  bridge: 'br-lab',
  bridgeAddress: '10.77.0.1',
  bridgePrefix: 24,
  subnet: '10.77.0.0/24',
  netmask: '255.255.255.0',
  /** A ULA prefix on the bridge, so dnsmasq has a prefix to advertise (router advertisements, see labUp). */
  bridgeAddress6: 'fd77::1/64',
  rangeStart: '10.77.0.100',
  rangeEnd: '10.77.0.199',
  /** The namespace end of the uplink veth (its name is private to the namespace). */
  labUplink: 'uplink',
  hostUplinkAddress: '10.77.255.1',
  labUplinkAddress: '10.77.255.2',
  uplinkPrefix: 30,
} as const;

/** Namespaces a lab may use; `labDown --force` removes nothing else. */
export const LAB_NAMESPACE_PATTERN = /^ingot-lab[A-Za-z0-9_.-]{0,40}$/;

/** The default namespace. */
export const DEFAULT_NAMESPACE = 'ingot-lab';

/** Throws InvalidParameterValue unless `name` is a lab namespace name (`ingot-lab…`). */
export function checkNamespaceName(name: string): string {
  if (!LAB_NAMESPACE_PATTERN.test(name)) {
    throw fail('labNamespaceInvalid', { name });
  }
  return name;
}

/**
 * The host end of the uplink veth of namespace `ns`: `<ns>-h` when that fits Linux's 15 characters,
 * else `il-<hash>-h`, so two namespaces never share it.
 */
export function hostVethName(ns: string): string {
  if (ns.length <= 13) return `${ns}-h`;
  return `il-${createHash('sha256').update(ns).digest('hex').slice(0, 10)}-h`;
}

/** The tap of VM `i` (0-based) inside the namespace. */
export function tapName(i: number): string {
  return `tap${i + 1}`;
}

/** The MAC of VM `i` (0-based): 52:54:00:77:00:01 for the first. */
export function vmMac(i: number): string {
  if (!Number.isInteger(i) || i < 0 || i > 254) throw fail('labMachineCountInvalid', { max: 255, machines: i + 1 });
  return `52:54:00:77:00:${(i + 1).toString(16).padStart(2, '0')}`;
}

/** The name of VM `i` (0-based), also its node name: `lab-1` for the first. */
export function vmName(i: number): string {
  return `lab-${i + 1}`;
}
