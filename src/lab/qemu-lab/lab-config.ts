/**
 * What the lab's two processes are started with: the configuration file of `ingot serve` (API, HTTP
 * boot, TFTP and a managed dnsmasq on the lab bridge) and the machines file of `ingot bmc` (QEMU VMs
 * on the lab's taps). Pure: labUp writes the results.
 */
import type { QemuSpec } from '../../bmc/fleet-spec.js';
import type { ApiConfig } from '../../config/api.js';
import type { BootConfig } from '../../config/boot.js';
import type { ConductorConfig } from '../../config/conductor.js';
import type { DatabaseConfig } from '../../config/database.js';
import type { DhcpConfig } from '../../config/dhcp.js';
import type { ImagesConfig } from '../../config/images.js';
import type { LogConfig } from '../../config/log.js';
import type { TftpConfig } from '../../config/tftp.js';
import { LAB_NET, tapName, vmMac, vmName } from './layout.js';

/** Ports the lab's services listen on inside the namespace. */
export interface LabPorts {
  /** Ingot API (on every address of the namespace, so the host reaches it through the uplink). */
  api: number;
  /** HTTP boot server on the bridge address. */
  http: number;
  /** The BMC emulators' Redfish service on the bridge address. */
  redfish: number;
  /** IPMI of machine i answers on ipmiBase + i. */
  ipmiBase: number;
}

/** Ironic's API port, Ingot's HTTP boot default, `ingot bmc`'s defaults. */
export const DEFAULT_LAB_PORTS: LabPorts = { api: 6385, http: 8088, redfish: 8000, ipmiBase: 6230 };

/** The subset of Ingot's configuration groups the lab sets (the rest keeps its defaults). */
export interface LabIngotConfig {
  api: Partial<ApiConfig>;
  database: Partial<DatabaseConfig>;
  log: Partial<LogConfig>;
  conductor: Partial<ConductorConfig>;
  boot: Partial<BootConfig>;
  tftp: Partial<TftpConfig>;
  images: Partial<ImagesConfig>;
  dhcp: Partial<Omit<DhcpConfig, 'managed'>> & { managed: Partial<DhcpConfig['managed']> };
}

/** How to configure the lab's `ingot serve`. */
export interface LabIngotConfigInput {
  /** The lab directory: file:// images (the deploy kernel and initramfs) may come from inside it. */
  labDir: string;
  dataDir: string;
  /** Where the VMs' serial consoles are captured: the nodes' console logs may be read from inside it. */
  vmDir: string;
  ports: LabPorts;
  logLevel: LogConfig['level'];
  /** Fast track for every node (`conductor.fast_track`): agents keep running between inspection, cleaning and deployment. */
  fastTrack?: boolean;
}

/** The lab's URLs as a machine on the bridge sees them. */
export function labUrls(ports: LabPorts): { api: string; boot: string; redfish: string } {
  const a = LAB_NET.bridgeAddress;
  return { api: `http://${a}:${ports.api}`, boot: `http://${a}:${ports.http}`, redfish: `http://${a}:${ports.redfish}` };
}

/**
 * The configuration file of the lab's `ingot serve`. The managed dnsmasq gets the three settings that
 * make iPXE boots fast (docs/lab.md): `no-ping` and iPXE's no-pxedhcp option are always in
 * its configuration; router advertisements are switched on here (the bridge carries an IPv6 prefix).
 */
export function labIngotConfig(input: LabIngotConfigInput): LabIngotConfig {
  const urls = labUrls(input.ports);
  return {
    // The machines reach the API over the lab's own bridge; the lab runs without authentication.
    api: { host: '0.0.0.0', port: input.ports.api, allow_insecure_noauth: true },
    database: { data_dir: input.dataDir },
    log: { level: input.logLevel },
    // A lab is stopped often: running operations get 5 s, not a minute, to finish on SIGTERM.
    conductor: { graceful_shutdown_timeout_s: 5, fast_track: input.fastTrack === true, console_log_allowed_paths: [input.vmDir] },
    boot: {
      http_enabled: true,
      http_host: LAB_NET.bridgeAddress,
      http_port: input.ports.http,
      http_url: urls.boot,
      api_url: urls.api,
      tftp_server: LAB_NET.bridgeAddress,
    },
    // Every QEMU NIC ROM is iPXE and goes straight to HTTP; Ingot's TFTP server answers option 66 anyway.
    tftp: { enabled: true, host: LAB_NET.bridgeAddress },
    images: { file_url_allowed_paths: [input.labDir] },
    dhcp: {
      provider: 'dnsmasq',
      managed: {
        enabled: true,
        interface: LAB_NET.bridge,
        range_start: LAB_NET.rangeStart,
        range_end: LAB_NET.rangeEnd,
        netmask: LAB_NET.netmask,
        router_advertisement: true,
      },
    },
  };
}

/** What the lab's machines are made of. */
export interface LabMachinesInput {
  machines: number;
  memoryMib: number;
  diskGib: number;
  username: string;
  password: string;
  /** QEMU's accelerator; default tcg. */
  accel?: 'tcg' | 'kvm';
}

/** The machines file of the lab's `ingot bmc`: VM i is `lab-<i+1>` with MAC 52:54:00:77:00:<i+1> on tap<i+1>. */
export function labMachines(input: LabMachinesInput): QemuSpec[] {
  return Array.from({ length: input.machines }, (_, i) => ({
    name: vmName(i),
    backend: 'qemu' as const,
    username: input.username,
    password: input.password,
    memory_mib: input.memoryMib,
    cpus: 1,
    disk_gib: input.diskGib,
    accel: input.accel ?? 'tcg',
    nics: [{ mac: vmMac(i), tap: tapName(i) }],
  }));
}

/** The driver of machine `i` of `machines`: the first `round(machines × redfishShare)` are Redfish, the rest IPMI. */
export function labDriver(i: number, machines: number, redfishShare: number): 'redfish' | 'ipmi' {
  return i < Math.round(machines * redfishShare) ? 'redfish' : 'ipmi';
}
