/**
 * The agent's configuration, read the way ironic-python-agent reads it: kernel command line parameters
 * (`ipa-*`, `BOOTIF`) first, then command line flags with the same names without the `ipa-` prefix
 * (`--inspection-callback-url=…`), flags winning. Unknown `ipa-*` keys are kept and reported, never
 * fatal, so a ramdisk booted with parameters for a newer agent still runs.
 */
import { AGENT_DEFAULT_PORT } from '../protocol/agent/commands.js';
import { fail } from '../shared/errors.js';
import { macFromBootif } from '../shared/mac.js';

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
  /** Address the agent's API listens on (`ipa-listen-host`). */
  listenHost: string;
  /** Port of the agent's API (`ipa-listen-port`; 0 picks a free one). */
  listenPort: number;
  /** Address the conductor is told to call (`ipa-advertise-host`); null: the route's source address towards the API. */
  advertiseHost: string | null;
  /** Port the conductor is told to call (`ipa-advertise-port`); null: the listening port. */
  advertisePort: number | null;
  /** Total time to retry the lookup (`ipa-lookup-timeout`, seconds). */
  lookupTimeoutS: number;
  /** First wait between lookups (`ipa-lookup-interval`, seconds), doubling up to 60 s. */
  lookupIntervalS: number;
  /** A pre-shared agent token (`ipa-agent-token`), e.g. baked into a virtual media image. */
  agentToken: string | null;
  /** No data for this long fails an image download attempt (`ipa-image-download-connection-timeout`, s). */
  imageDownloadTimeoutS: number;
  /** Extra download attempts per URL (`ipa-image-download-connection-retries`). */
  imageDownloadRetries: number;
  /** Wait between download attempts (`ipa-image-download-connection-retry-interval`, s). */
  imageDownloadRetryIntervalS: number;
  /**
   * Disk files of a simulated machine (`ipa-simulated-disk`): `/dev/sda=/path/a.img,/dev/sdb=/path/b.img`,
   * or a single path for the profile's first disk. Ingot-only.
   */
  simulatedDisks: string | null;
}

/** Default total retry time for one request to Ironic (IPA's `lookup_timeout` is 300 s). */
export const DEFAULT_GLOBAL_REQUEST_TIMEOUT_S = 300;
/** Default total lookup time (IPA `lookup_timeout`, 600 s since Yoga). */
export const DEFAULT_LOOKUP_TIMEOUT_S = 600;

type Kind = 'url' | 'string' | 'bool' | 'list' | 'seconds' | 'nonneg' | 'count' | 'port' | 'manager';

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
  'listen-host': { kind: 'string', key: 'listenHost', help: 'address the agent API listens on (default 0.0.0.0)' },
  'listen-port': { kind: 'port', key: 'listenPort', help: `port of the agent API (default ${AGENT_DEFAULT_PORT})` },
  'advertise-host': { kind: 'string', key: 'advertiseHost', help: 'address the conductor calls (default: the source address towards the API)' },
  'advertise-port': { kind: 'port', key: 'advertisePort', help: 'port the conductor calls (default: the listening port)' },
  'lookup-timeout': { kind: 'nonneg', key: 'lookupTimeoutS', help: `seconds to retry the lookup (default ${DEFAULT_LOOKUP_TIMEOUT_S})` },
  'lookup-interval': { kind: 'nonneg', key: 'lookupIntervalS', help: 'first wait between lookups, seconds (default 1)' },
  'agent-token': { kind: 'string', key: 'agentToken', help: 'pre-shared agent token' },
  'image-download-connection-timeout': { kind: 'seconds', key: 'imageDownloadTimeoutS', help: 'seconds without data before a download attempt fails (default 60)' },
  'image-download-connection-retries': { kind: 'count', key: 'imageDownloadRetries', help: 'extra download attempts per URL (default 9)' },
  'image-download-connection-retry-interval': { kind: 'nonneg', key: 'imageDownloadRetryIntervalS', help: 'seconds between download attempts (default 10)' },
  'simulated-disk': { kind: 'string', key: 'simulatedDisks', help: 'disk files of the simulated machine: /dev/sda=FILE[,/dev/sdb=FILE] or FILE' },
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
    listenHost: '0.0.0.0',
    listenPort: AGENT_DEFAULT_PORT,
    advertiseHost: null,
    advertisePort: null,
    lookupTimeoutS: DEFAULT_LOOKUP_TIMEOUT_S,
    lookupIntervalS: 1,
    agentToken: null,
    imageDownloadTimeoutS: 60,
    imageDownloadRetries: 9,
    imageDownloadRetryIntervalS: 10,
    simulatedDisks: null,
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
  const mac = macFromBootif(value);
  if (mac === null) {
    throw fail('bootifNotMac', { value });
  }
  return mac;
}

/** IPA's boolean spellings (oslo.config `BoolOpt`); a bare kernel word or flag means true. */
function parseBool(name: string, value: string): boolean {
  const v = value.trim().toLowerCase();
  if (v === '' || ['1', 'true', 'yes', 'on', 't', 'y'].includes(v)) return true;
  if (['0', 'false', 'no', 'off', 'f', 'n'].includes(v)) return false;
  throw fail('agentParamNotBoolean', { param: name, value });
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
      if (value === '') throw fail('agentParamUrlMissing', { param: displayName });
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        throw fail('agentParamNotUrl', { param: displayName, value });
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        // NOTE: IPA also accepts the special value "mdns" (multicast DNS discovery); Ingot does not.
        throw fail('agentParamNotHttp', { param: displayName, value });
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
        throw fail('agentParamNotSeconds', { param: displayName, value });
      }
      set(n);
      return;
    }
    case 'nonneg':
    case 'count':
    case 'port': {
      const n = Number(value);
      const whole = spec.kind !== 'nonneg';
      const max = spec.kind === 'port' ? 65535 : Number.MAX_SAFE_INTEGER;
      if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > max || (whole && !Number.isInteger(n))) {
        const values = { param: displayName, value };
        throw spec.kind === 'port' ? fail('agentParamNotPort', values) : spec.kind === 'count' ? fail('agentParamNotCount', values) : fail('agentParamNotDuration', values);
      }
      set(n);
      return;
    }
    case 'manager':
      if (!(HARDWARE_MANAGERS as readonly string[]).includes(value)) {
        throw fail('agentParamNotManager', { param: displayName, value, choices: HARDWARE_MANAGERS.join(' or ') });
      }
      set(value);
      return;
    case 'string':
      if (value === '') throw fail('agentParamValueMissing', { param: displayName });
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
      throw fail('agentArgumentUnexpected', { argument: arg });
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
        if (next === undefined || next.startsWith('--')) throw fail('agentParamValueMissing', { param: display });
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
