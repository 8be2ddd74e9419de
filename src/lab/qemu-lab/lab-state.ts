/**
 * `lab.json`: everything `labUp` created, so `labStatus` can check it and `labDown` can remove it, also
 * from another process and after a crash. Written as soon as there is something to remove, and again
 * as the lab grows.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { fail } from '../../shared/errors.js';
import type { LabPorts } from './lab-config.js';
import type { ProcessIdentity } from './processes.js';

/** One of the lab's long-running processes. */
export interface LabProcess extends ProcessIdentity {
  role: 'serve' | 'bmc';
  /** Its stdout and stderr. */
  log: string;
}

/** One machine of the lab and the node it is enrolled as. */
export interface LabNode {
  name: string;
  /** Null until it is enrolled. */
  uuid: string | null;
  driver: 'redfish' | 'ipmi';
  macs: string[];
  tap: string;
  /** The VM's serial console, appended to at every boot (also the node's `driver_info.console_log_file`). */
  serial_log: string;
  disk: string;
}

/** The content of `lab.json`. */
export interface LabState {
  version: 1;
  dir: string;
  created_at: string;
  namespace: string;
  bridge: string;
  taps: string[];
  veth: { host: string; lab: string };
  addresses: { bridge: string; bridge6: string; host_uplink: string; lab_uplink: string; subnet: string; dhcp_range: [string, string] };
  ports: LabPorts;
  urls: {
    /** The Ingot API as the host reaches it (through the uplink). */
    api: string;
    /** The Ingot API as the machines reach it (ipa-api-url). */
    api_in_lab: string;
    boot: string;
    redfish: string;
  };
  processes: LabProcess[];
  nodes: LabNode[];
  files: { config: string; machines: string; inventory: string; kernel: string; initramfs: string; data_dir: string; vm_dir: string; logs: string };
}

/** Writes `state` to `file` atomically (a crash never leaves half a file for labDown to trip over). */
export async function writeLabState(file: string, state: LabState): Promise<void> {
  const tmp = `${file}.tmp-${process.pid}`;
  await writeFile(tmp, `${JSON.stringify(state, null, 2)}\n`);
  await rename(tmp, file);
}

/** The state in `file`; undefined when there is none; InvalidParameterValue when it is not a lab's. */
export async function readLabState(file: string): Promise<LabState | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw fail('labStateNotJson', { file, reason: (err as Error).message });
  }
  const s = doc as Partial<LabState> | null;
  if (!s || s.version !== 1 || typeof s.namespace !== 'string' || !Array.isArray(s.processes) || !Array.isArray(s.nodes)) {
    throw fail('labStateForeign', { file });
  }
  return s as LabState;
}
