/**
 * The agent's configuration, read the way ironic-python-agent reads it: kernel command line parameters
 * (`ipa-*`, `BOOTIF`) first, then command line flags with the same names without the `ipa-` prefix
 * (`--inspection-callback-url=…`), flags winning. Unknown `ipa-*` keys are kept and reported, never
 * fatal, so a ramdisk booted with parameters for a newer agent still runs.
 */
import { fail } from '../shared/errors.js';

/** Hardware managers this agent ships. */
export const HARDWARE_MANAGERS = ['linux', 'simulated'] as const;
export type HardwareManagerName = (typeof HARDWARE_MANAGERS)[number];

/** Resolved agent configuration. */
export interface AgentConfig {
  /** Where to post the inspection payload (`ipa-inspection-callback-url`); null: no inspection. */
  inspectionCallbackUrl: string | null;
  /** The Ironic API (`ipa-api-url`), for lookup and heartbeats. */
  apiUrl: string | null;
  /** Collector names in order (`ipa-inspection-collectors`, comma list, default `default`). */
  inspectionCollectors: string[];
  debug: boolean;
  inspectionDhcpAllInterfaces: boolean;
  collectLldp: boolean;
  standalone: boolean;
  /** Skip TLS certificate verification towards Ironic. */
  insecure: boolean;
  /** Total time (seconds) the agent keeps retrying one request to Ironic before giving up. */
  globalRequestTimeoutS: number;
  hardwareManager: HardwareManagerName;
  /** Path of a JSON HardwareProfile, for the `simulated` hardware manager. */
  simulatedProfile: string | null;
  /** BMC address the simulated manager reports (`ipa-simulated-bmc-address`), or null. */
  simulatedBmcAddress: string | null;
  /** The MAC the machine PXE-booted from (from `BOOTIF`), lower case with colons. */
  bootMac: string | null;
  /** `ipa-*` keys (and unknown `--flags`) this agent does not know, with their values. */
  unknown: Record<string, string>;
  /** `--help` was given. */
  help: boolean;
  /** `--print-payload`: collect and print the payload instead of posting it. */
  printPayload: boolean;
}

/** Default total retry time for one request to Ironic (IPA's `lookup_timeout` is 300 s). */
export const DEFAULT_GLOBAL_REQUEST_TIMEOUT_S = 300;

type Kind = 'url' | 'string' | 'bool' | 'list' | 'seconds' | 'manager';

/** Parameter name (kernel form, without `ipa-`) -> kind and config key. */
const PARAMS: Record<string, { kind: Kind; key: keyof AgentConfig; help: string }> = {
  'inspection-callback-url': { kind: 'url', key: 'inspectionCallbackUrl', help: 'URL to post the inspection data to' },
  'api-url': { kind: 'url', key: 'apiUrl', help: 'URL of the Ironic API' },
  'inspection-collectors': { kind: 'list', key: 'inspectionCollectors', help: 'comma list: default, logs, pci-devices, extra-hardware' },
  debug: { kind: 'bool', key: 'debug', help: 'verbose logging on stderr' },
  'inspection-dhcp-all-interfaces': { kind: 'bool', key: 'inspectionDhcpAllInterfaces', help: 'wait for DHCP on all interfaces' },
  'collect-lldp': { kind: 'bool', key: 'collectLldp', help: 'collect LLDP frames per interface' },
  standalone: { kind: 'bool', key: 'standalone', help: 'no lookup or heartbeats' },
  insecure: { kind: 'bool', key: 'insecure', help: 'do not verify TLS certificates' },
  'global-request-timeout': { kind: 'seconds', key: 'globalRequestTimeoutS', help: `seconds to retry a request (default ${DEFAULT_GLOBAL_REQUEST_TIMEOUT_S})` },
  'hardware-manager': { kind: 'manager', key: 'hardwareManager', help: 'linux (default) or simulated' },
  'simulated-profile': { kind: 'string', key: 'simulatedProfile', help: 'JSON hardware profile for the simulated manager' },
  'simulated-bmc-address': { kind: 'string', key: 'simulatedBmcAddress', help: 'BMC address the simulated manager reports' },
};

/** Ingot-only flags (no kernel parameter form). */
const LOCAL_FLAGS: Record<string, keyof AgentConfig> = { help: 'help', 'print-payload': 'printPayload' };

/** Usage text for `--help`. */
export function agentUsage(): string {
  const lines = ['Usage: ingot agent [--flag[=value] …]', '', 'Kernel parameters (ipa-<name>=value) and flags (--<name>=value), flags win:'];
  for (const [name, p] of Object.entries(PARAMS)) lines.push(`  --${name.padEnd(32)} ${p.help}`);
  lines.push(`  ${'BOOTIF=01-aa-bb-cc-dd-ee-ff'.padEnd(34)} kernel parameter: the PXE boot MAC`);
  lines.push(`  --${'print-payload'.padEnd(32)} print the inspection payload instead of posting it`);
  lines.push(`  --${'help'.padEnd(32)} this text`);
  return lines.join('\n');
}

/** The default configuration (nothing on the command lines). */
export function defaultAgentConfig(): AgentConfig {
  return {
    inspectionCallbackUrl: null,
    apiUrl: null,
    inspectionCollectors: ['default'],
    debug: false,
    inspectionDhcpAllInterfaces: false,
    collectLldp: false,
    standalone: false,
    insecure: false,
    globalRequestTimeoutS: DEFAULT_GLOBAL_REQUEST_TIMEOUT_S,
    hardwareManager: 'linux',
    simulatedProfile: null,
    simulatedBmcAddress: null,
    bootMac: null,
    unknown: {},
    help: false,
    printPayload: false,
  };
}

/**
 * Splits a kernel command line (the text of /proc/cmdline) into key -> value. A bare word is a key
 * with value ''. Double quotes group a value with spaces (`key="a b"`). Parsing stops at `--`: what
 * follows belongs to init, not to the kernel (Documentation/admin-guide/kernel-parameters.rst).
 */
export function parseKernelCmdline(cmdline: string): Map<string, string> {
  const params = new Map<string, string>();
  const tokens = cmdline.match(/(?:[^\s"]+|"[^"]*")+/g) ?? [];
  for (const raw of tokens) {
    if (raw === '--') break;
    const token = raw.replace(/"/g, '');
    const eq = token.indexOf('=');
    if (eq < 0) params.set(token, '');
    else params.set(token.slice(0, eq), token.slice(eq + 1));
  }
  return params;
}

/**
 * Normalizes a PXE boot MAC: `BOOTIF=01-aa-bb-cc-dd-ee-ff` (pxelinux form: ARP hardware type 01,
 * then the MAC) or a plain MAC with `-` or `:` separators, to `aa:bb:cc:dd:ee:ff`.
 */
export function normalizeBootif(value: string): string {
  const parts = value.trim().toLowerCase().split(/[-:]/);
  const mac = parts.length === 7 && parts[0] === '01' ? parts.slice(1) : parts;
  if (mac.length !== 6 || !mac.every((p) => /^[0-9a-f]{2}$/.test(p))) {
    throw fail('InvalidParameterValue', `BOOTIF: "${value}" is not a MAC address (expected 01-aa-bb-cc-dd-ee-ff or aa:bb:cc:dd:ee:ff).`);
  }
  return mac.join(':');
}

/** IPA's boolean spellings (oslo.config `BoolOpt`); a bare kernel word or flag means true. */
function parseBool(name: string, value: string): boolean {
  const v = value.trim().toLowerCase();
  if (v === '' || ['1', 'true', 'yes', 'on', 't', 'y'].includes(v)) return true;
  if (['0', 'false', 'no', 'off', 'f', 'n'].includes(v)) return false;
  throw fail('InvalidParameterValue', `${name}: "${value}" is not a boolean (use true/false, 1/0, yes/no, on/off).`);
}

function applyParam(config: AgentConfig, name: string, displayName: string, value: string): void {
  const spec = PARAMS[name];
  if (!spec) return;
  const set = (v: unknown) => ((config as unknown as Record<string, unknown>)[spec.key] = v);
  switch (spec.kind) {
    case 'bool':
      set(parseBool(displayName, value));
      return;
    case 'url': {
      if (value === '') throw fail('MissingParameterValue', `${displayName}: a URL is required.`);
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        throw fail('InvalidParameterValue', `${displayName}: "${value}" is not a URL.`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        // NOTE: IPA also accepts the special value "mdns" (multicast DNS discovery); Ingot does not.
        throw fail('InvalidParameterValue', `${displayName}: "${value}" must start with http:// or https:// (mdns discovery is not supported).`);
      }
      set(value);
      return;
    }
    case 'list':
      set(value.split(',').map((s) => s.trim()).filter((s) => s !== ''));
      return;
    case 'seconds': {
      const n = Number(value);
      if (value.trim() === '' || !Number.isFinite(n) || n <= 0) {
        throw fail('InvalidParameterValue', `${displayName}: "${value}" is not a positive number of seconds.`);
      }
      set(n);
      return;
    }
    case 'manager':
      if (!(HARDWARE_MANAGERS as readonly string[]).includes(value)) {
        throw fail('InvalidParameterValue', `${displayName}: "${value}" is not a hardware manager (choose ${HARDWARE_MANAGERS.join(' or ')}).`);
      }
      set(value);
      return;
    case 'string':
      if (value === '') throw fail('MissingParameterValue', `${displayName}: a value is required.`);
      set(value);
      return;
  }
}

/** Splits command line flags into name -> value; `--name value` takes the next word for non-booleans. */
function parseFlags(argv: string[]): Map<string, { display: string; value: string }> {
  const flags = new Map<string, { display: string; value: string }>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--') || arg === '--') {
      throw fail('InvalidParameterValue', `Unexpected argument "${arg}": the agent takes only --flags (see --help).`);
    }
    const eq = arg.indexOf('=');
    const display = eq < 0 ? arg : arg.slice(0, eq);
    // oslo.config accepts both --inspection_callback_url and --inspection-callback-url.
    const name = display.slice(2).replace(/_/g, '-').replace(/^ipa-/, '');
    let value: string;
    if (eq >= 0) value = arg.slice(eq + 1);
    else {
      const spec = PARAMS[name];
      const takesValue = (spec !== undefined && spec.kind !== 'bool') || name === 'bootif';
      const next = argv[i + 1];
      if (takesValue) {
        if (next === undefined || next.startsWith('--')) throw fail('MissingParameterValue', `${display}: a value is required.`);
        value = next;
        i++;
      } else value = '';
    }
    flags.set(name, { display, value });
  }
  return flags;
}

/**
 * The configuration from a kernel command line and agent flags (`argv` without node and script).
 * Throws InvalidParameterValue / MissingParameterValue naming the parameter for a bad value.
 */
export function loadAgentConfig(cmdline: string, argv: string[]): AgentConfig {
  const config = defaultAgentConfig();
  const kernel = parseKernelCmdline(cmdline);
  for (const [key, value] of kernel) {
    if (key === 'BOOTIF') config.bootMac = normalizeBootif(value);
    else if (key.startsWith('ipa-')) {
      const name = key.slice(4);
      if (PARAMS[name]) applyParam(config, name, key, value);
      else config.unknown[key] = value;
    }
  }
  for (const [name, { display, value }] of parseFlags(argv)) {
    const local = LOCAL_FLAGS[name];
    if (local) (config as unknown as Record<string, unknown>)[local] = parseBool(display, value);
    else if (name === 'bootif') config.bootMac = normalizeBootif(value);
    else if (PARAMS[name]) applyParam(config, name, display, value);
    else config.unknown[display] = value;
  }
  return config;
}
