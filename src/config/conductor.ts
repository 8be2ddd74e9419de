import { hostname } from 'node:os';
import { Type, type Static } from 'typebox';

/** The conductor: identity, worker pool, periodic tasks and their timeouts. */
export const ConductorConfig = Type.Object({
  hostname: Type.String({ default: hostname(), minLength: 1, description: 'Name this conductor registers under and writes into node locks.' }),
  conductor_group: Type.String({ default: '', description: 'Conductor group: this conductor manages only nodes of the same conductor_group.' }),
  workers: Type.Integer({ default: 100, minimum: 1, description: 'Background operations that may run at once; more requests get 503 NoFreeConductorWorkers.' }),
  enabled_hardware_types: Type.Array(Type.String(), {
    default: ['fake-hardware', 'manual-management', 'redfish', 'ipmi'],
    description: 'Hardware types (driver names) this conductor serves.',
  }),
  automated_clean: Type.Boolean({ default: true, description: 'Clean nodes on provide and after undeploy unless a node sets automated_clean false.' }),
  allow_deleting_available_nodes: Type.Boolean({ default: true, description: 'Allow deleting nodes in `available` (besides enroll, manageable, adopt failed and maintenance).' }),
  heartbeat_interval_s: Type.Number({ default: 10, exclusiveMinimum: 0, description: 'How often the conductor records that it is alive.' }),
  heartbeat_timeout_s: Type.Number({ default: 60, exclusiveMinimum: 0, description: 'A conductor silent for longer is dead: its locks are released and its in-flight work fails.' }),
  sync_power_state_interval_s: Type.Number({ default: 60, exclusiveMinimum: 0, description: 'How often the power state of unlocked nodes is read back from the hardware.' }),
  power_state_change_timeout_s: Type.Number({
    default: 60, exclusiveMinimum: 0, description: 'Longest wait for a machine to reach a requested power state (unless the request names its own timeout).',
  }),
  inspection_power_off: Type.Boolean({ default: true, description: 'Power the machine off when in-band inspection ends (Ironic `[inspector]power_off`).' }),
  sync_power_state_workers: Type.Integer({ default: 8, minimum: 1, description: 'Power states read at once by one sync round.' }),
  sync_power_state_per_bmc: Type.Integer({ default: 2, minimum: 1, description: 'Power states read at once through one BMC (nodes sharing a BMC address).' }),
  force_power_state_during_sync: Type.Boolean({
    default: false,
    description: 'On a power mismatch, set the hardware back to the state Ingot recorded (true) instead of recording what the hardware says (false).',
  }),
  power_state_sync_max_retries: Type.Integer({
    default: 3, minimum: 1, description: 'Consecutive failed power reads after which a node goes into maintenance with fault `power failure`.',
  }),
  power_failure_recovery_interval_s: Type.Number({
    default: 300, exclusiveMinimum: 0, description: 'How often nodes in maintenance for a power failure are checked; one whose BMC answers again leaves maintenance.',
  }),
  check_provision_state_interval_s: Type.Number({ default: 60, exclusiveMinimum: 0, description: 'How often nodes in wait states are checked for timeouts.' }),
  deploy_callback_timeout_s: Type.Number({ default: 1800, exclusiveMinimum: 0, description: 'Longest time a node may stay in `wait call-back`.' }),
  clean_callback_timeout_s: Type.Number({ default: 1800, exclusiveMinimum: 0, description: 'Longest time a node may stay in `clean wait`.' }),
  inspect_wait_timeout_s: Type.Number({ default: 1800, exclusiveMinimum: 0, description: 'Longest time a node may stay in `inspect wait`.' }),
  agent_heartbeat_timeout_s: Type.Number({
    default: 300, exclusiveMinimum: 0,
    description: 'Heartbeat timeout handed to the ramdisk agent at lookup (it heartbeats every 30–60 % of it; Ironic `[api]ramdisk_heartbeat_timeout`).',
  }),
  fast_track: Type.Boolean({
    default: false,
    description: 'Fast track (Ironic `[deploy]fast_track`): the ramdisk agent keeps running after inspection and cleaning (the machine stays on), and the next cleaning or deployment uses it instead of booting the ramdisk again; a node\'s driver_info `fast_track` wins.',
  }),
  fast_track_timeout_s: Type.Number({
    default: 300, exclusiveMinimum: 0,
    description: 'An agent heard from within this many seconds counts as running for fast track (Ironic `[deploy]fast_track_timeout`); keep it above 60 % of agent_heartbeat_timeout_s, the longest gap between heartbeats.',
  }),
  rescue_callback_timeout_s: Type.Number({ default: 1800, exclusiveMinimum: 0, description: 'Longest time a node may stay in `rescue wait`.' }),
  service_callback_timeout_s: Type.Number({ default: 1800, exclusiveMinimum: 0, description: 'Longest time a node may stay in `service wait`.' }),
  erase_devices_priority: Type.Integer({
    default: 0, minimum: 0,
    description: 'Priority of the agent\'s `erase_devices` step (full disk wipe) in automated cleaning; 0 leaves it out (Ironic `[deploy]erase_devices_priority`).',
  }),
  erase_devices_metadata_priority: Type.Integer({
    default: 99, minimum: 0,
    description: 'Priority of the agent\'s `erase_devices_metadata` step (partition tables and signatures) in automated cleaning; 0 leaves it out.',
  }),
  deploy_logs_collect: Type.Union([Type.Literal('on_failure'), Type.Literal('always'), Type.Literal('never')], {
    default: 'on_failure',
    description: 'When to fetch the ramdisk agent\'s logs at the end of a deployment or cleaning (Ironic `[agent]deploy_logs_collect`).',
  }),
  deploy_logs_dir: Type.String({
    default: '',
    description: 'Where collected agent logs are stored (`<node>_<instance>_<time>.tar.gz`); empty: `<data dir>/deploy-logs` in `ingot serve`, not stored otherwise.',
  }),
  console_logs_dir: Type.String({
    default: '',
    description: 'Where the tail of a node\'s serial console log (driver_info `console_log_file`) is kept when the node fails (`<node>_<time>.log`, named in its history); empty: `<data dir>/console-logs` in `ingot serve`, not kept otherwise.',
  }),
  console_log_allowed_paths: Type.Array(Type.String({ pattern: '^/' }), {
    default: [],
    description: 'Directories a node\'s driver_info `console_log_file` may name a file in (absolute paths; only regular files, symbolic links leading out are refused); empty: console logs are never read.',
  }),
  graceful_shutdown_timeout_s: Type.Number({ default: 60, minimum: 0, description: 'On stop, how long running operations may finish before they are abandoned (their nodes fail).' }),
});
export type ConductorConfig = Static<typeof ConductorConfig>;
