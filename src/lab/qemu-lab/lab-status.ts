/** `labStatus`: what runs of a lab, and its nodes as Ingot sees them. */
import { fail, messageOf } from '../../shared/errors.js';
import { listNamespaces } from './host-tools.js';
import { LabApi } from './lab-api.js';
import { type LabState, readLabState } from './lab-state.js';
import { labPaths } from './layout.js';
import { stillRunning } from './processes.js';

/** The state of one recorded process. */
export interface LabProcessStatus {
  role: string;
  pid: number;
  /** Running, and still the process that was recorded (start time and command line). */
  alive: boolean;
  log: string;
}

/** One node of the lab. */
export interface LabNodeStatus {
  name: string;
  uuid: string | null;
  driver: string;
  macs: string[];
  serial_log: string;
  /** Null when the API did not answer or does not know the node. */
  provision_state: string | null;
  power_state: string | null;
  target_provision_state: string | null;
  maintenance: boolean | null;
  last_error: string | null;
}

/** What {@link labStatus} found. */
export interface LabStatus {
  state: LabState;
  namespaceExists: boolean;
  processes: LabProcessStatus[];
  /** Why the node list could not be read, if it could not. */
  apiError: string | null;
  nodes: LabNodeStatus[];
}

/** Reads `<dir>/lab.json`, checks its processes and namespace, and lists its nodes through the API (5 s at most). */
export async function labStatus(dir: string, signal?: AbortSignal): Promise<LabStatus> {
  const paths = labPaths(dir);
  const state = await readLabState(paths.state);
  if (!state) throw fail('labNotFound', { dir: paths.dir, state: paths.state });
  const [namespaces, processes] = await Promise.all([
    listNamespaces(),
    Promise.all(state.processes.map(async (p) => ({
      role: p.role, pid: p.pid, log: p.log, alive: await stillRunning(p, [`ip netns exec ${state.namespace} ${p.cmdline}`]),
    }))),
  ]);
  let apiError: string | null = null;
  const views = new Map<string, Awaited<ReturnType<LabApi['nodes']>>[number]>();
  try {
    const api = new LabApi(state.urls.api, AbortSignal.any([AbortSignal.timeout(5000), ...(signal ? [signal] : [])]));
    for (const n of await api.nodes()) views.set(n.uuid, n);
  } catch (err) {
    apiError = messageOf(err);
  }
  const nodes = state.nodes.map((n): LabNodeStatus => {
    const v = n.uuid ? views.get(n.uuid) : undefined;
    return {
      name: n.name, uuid: n.uuid, driver: n.driver, macs: n.macs, serial_log: n.serial_log,
      provision_state: v?.provision_state ?? null, power_state: v?.power_state ?? null, target_provision_state: v?.target_provision_state ?? null,
      maintenance: v?.maintenance ?? null, last_error: v?.last_error ?? null,
    };
  });
  return { state, namespaceExists: namespaces.includes(state.namespace), processes, apiError, nodes };
}

/** The status as text for a terminal: the lab's addresses, its processes, and a table of its nodes. */
export function formatLabStatus(s: LabStatus): string {
  const lines = [
    `lab ${s.state.dir}: namespace ${s.state.namespace} ${s.namespaceExists ? 'present' : 'MISSING'}; API ${s.state.urls.api} (machines: ${s.state.urls.api_in_lab}); boot ${s.state.urls.boot}; Redfish ${s.state.urls.redfish}`,
    ...s.processes.map((p) => `  ingot ${p.role.padEnd(5)} PID ${String(p.pid).padEnd(8)} ${p.alive ? 'running' : 'NOT RUNNING'}  log ${p.log}`),
  ];
  if (s.apiError) lines.push(`  nodes: the API did not answer (${s.apiError})`);
  const rows = [
    ['NAME', 'DRIVER', 'MAC', 'PROVISION', 'POWER', 'UUID', 'SERIAL LOG'],
    ...s.nodes.map((n) => [
      n.name, n.driver, n.macs.join(','),
      `${n.provision_state ?? '?'}${n.target_provision_state ? ` → ${n.target_provision_state}` : ''}${n.maintenance ? ' (maintenance)' : ''}`,
      n.power_state ?? '?', n.uuid ?? '-', n.serial_log,
    ]),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  for (const r of rows) lines.push(`  ${r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]!))).join('  ')}`);
  for (const n of s.nodes) if (n.last_error) lines.push(`  ${n.name}: last error: ${n.last_error}`);
  return `${lines.join('\n')}\n`;
}
