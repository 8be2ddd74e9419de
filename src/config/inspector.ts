/**
 * Configuration of inspection processing: which hooks run, in which order, and the options they read.
 * Names and defaults follow Ironic's `[inspector]` group (`ironic/conf/inspector.py`), so an operator's
 * Ironic settings carry over. The TypeBox schema lets the configuration layer validate the group once at
 * start-up; the processing code itself reads the plain {@link InspectorConfig} object.
 */
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';

/** Ironic's `[inspector]default_hooks`: what even a minimal deployment runs. */
export const IRONIC_DEFAULT_HOOKS = ['ramdisk-error', 'validate-interfaces', 'ports', 'architecture'] as const;

/**
 * Ingot's default hook list: Ironic's defaults plus the hooks that fill the node's scheduling
 * properties (cpus, memory_mb, local_gb) and capabilities, which the legacy ironic-inspector ran by
 * default (its `scheduler`, `root_disk_selection`, `capabilities` and `pci_devices` plugins) and which
 * every Nova/Placement-style scheduler needs. LLDP parsing and local_link_connection are cheap and only
 * act when the agent reports LLDP, so they are on as well. `physical-network` (needs a CIDR map) and
 * `extra-hardware` (only useful with the agent's extra-hardware collector and rules reading `extra`) stay
 * opt-in; Ironic's `raid-device` and `accelerators` are not implemented.
 */
export const INGOT_DEFAULT_HOOKS = [
  ...IRONIC_DEFAULT_HOOKS,
  'cpus', 'memory', 'root-device', 'boot-mode', 'cpu-capabilities', 'pci-devices', 'parse-lldp', 'local-link-connection',
] as const;

/** Ironic's `[inspector]cpu_capabilities` default: CPU flag -> capability set to "true". */
export const DEFAULT_CPU_CAPABILITIES: Readonly<Record<string, string>> = Object.freeze({
  vmx: 'cpu_vt',
  svm: 'cpu_vt',
  aes: 'cpu_aes',
  pse: 'cpu_hugepages',
  pdpe1gb: 'cpu_hugepages_1g',
  smx: 'cpu_txt',
});

/** The `inspector` configuration group. */
export const InspectorConfigSchema = Type.Object({
  hooks: Type.Array(Type.String({ minLength: 1 }), {
    default: [...INGOT_DEFAULT_HOOKS],
    description: 'Inspection hooks to run, in order (Ironic dash names). Dependencies must come earlier in the list.',
  }),
  add_ports: Type.Union([Type.Literal('pxe'), Type.Literal('active'), Type.Literal('all'), Type.Literal('disabled')], {
    default: 'pxe',
    description: 'Which interfaces become ports: the PXE NIC only, NICs with an IP address, all NICs, or none.',
  }),
  keep_ports: Type.Union([Type.Literal('all'), Type.Literal('present'), Type.Literal('added')], {
    default: 'all',
    description: 'Which existing ports survive inspection: all, those whose MAC is in the inventory, or those add_ports selects.',
  }),
  update_pxe_enabled: Type.Boolean({ default: true, description: 'Set pxe_enabled on existing ports to match the NIC the machine booted from.' }),
  disk_partitioning_spacing: Type.Boolean({ default: true, description: 'Leave 1 GiB of the root disk out of local_gb for partitioning.' }),
  cpu_capabilities: Type.Record(Type.String(), Type.String(), {
    default: { ...DEFAULT_CPU_CAPABILITIES },
    description: 'CPU flag -> node capability set to "true" when the flag is present (cpu-capabilities hook).',
  }),
  pci_aliases: Type.Array(Type.Object({ vendor_id: Type.String(), product_id: Type.String(), name: Type.String({ minLength: 1 }) }), {
    default: [],
    description: 'PCI devices to count into capabilities, e.g. {"vendor_id":"10de","product_id":"1eb8","name":"gpu_t4"} (pci-devices hook).',
  }),
  extra_hardware_strict: Type.Boolean({
    default: false,
    description: 'extra-hardware hook: require exactly 4 fields per fact and drop data in any other shape.',
  }),
  physical_network_cidr_map: Type.Array(Type.String(), {
    default: [],
    description: 'CIDR:physnet pairs, e.g. "10.10.10.0/24:physnet_a"; a port whose NIC has an address in the CIDR gets that physical_network.',
  }),
  built_in_rules: Type.String({
    default: '',
    description: 'A YAML or JSON file of inspection rules that always run and cannot be changed through the API (empty: none).',
  }),
  rules_mask_secrets: Type.Union([Type.Literal('always'), Type.Literal('sensitive'), Type.Literal('never')], {
    default: 'always',
    description: 'Whether rules read passwords and tokens in the inspection data as "***": always, only in rules not marked sensitive, or never.',
  }),
  auto_discovery: Type.Object(
    {
      enabled: Type.Boolean({ default: false, description: 'Enroll a new node when inspection data arrives from a machine no node matches.' }),
      driver: Type.String({ default: 'ipmi', minLength: 1, description: 'Hardware type of discovered nodes; their BMC address goes into its driver_info.' }),
    },
    { default: {}, description: 'Auto-discovery of unknown machines that boot the inspection ramdisk.' },
  ),
  service_url: Type.String({
    default: '',
    description: 'Base URL of an external ironic-inspector service (the `inspector` inspect interface), e.g. http://10.0.0.5:5050.',
  }),
  status_check_period_s: Type.Number({
    default: 60,
    minimum: 1,
    description: 'How often nodes inspected by an external inspector are polled for their introspection status.',
  }),
});

/** Inspection processing options; see {@link InspectorConfigSchema} for each key. */
export type InspectorConfig = Static<typeof InspectorConfigSchema>;

/** The configuration with every default (the schema's), as a fresh object, with `overrides` over it. */
export function defaultInspectorConfig(overrides: Partial<InspectorConfig> = {}): InspectorConfig {
  return structuredClone(Value.Default(InspectorConfigSchema, structuredClone(overrides))) as InspectorConfig;
}
