/** The error messages raised in `src/boot/` (see `index.ts` for how a message reads and is raised). */
import type { MessageTable } from './table.js';

export const BOOT_MESSAGES = {
  // boot/dhcp/boot-options.ts
  httpBootUrlInvalid: { code: 'InvalidParameterValue', text: 'The UEFI HTTP boot URL must be an http:// or https:// URL, not "{url}".' },

  // boot/dhcp/create-provider.ts
  dhcpManagedNeedsDnsmasq: { code: 'ConfigInvalid', text: 'dhcp.managed.enabled needs dhcp.provider = dnsmasq.' },
  dhcpPidFileWithManaged: { code: 'ConfigInvalid', text: 'dhcp.pid_file is for a dnsmasq the operator runs; leave it empty with dhcp.managed.enabled.' },
  dhcpManagedSettingMissing: { code: 'ConfigInvalid', text: 'dhcp.managed.{key} is required with dhcp.managed.enabled.' },

  // boot/dhcp/dnsmasq-config.ts ({key} is a setting of dhcp.managed or dhcp)
  dhcpInterfaceInvalid: { code: 'ConfigInvalid', text: 'dhcp.managed.interface "{value}" is not a network interface name.' },
  dhcpAddressInvalid: { code: 'ConfigInvalid', text: 'dhcp.managed.{key} "{value}" is not an IPv4 address.' },
  dhcpLeaseTooShort: { code: 'ConfigInvalid', text: 'dhcp.managed.lease_time_s {value} is below dnsmasq\'s minimum of 120.' },
  dhcpSettingControlChar: { code: 'ConfigInvalid', text: 'dhcp.{key} holds a control character.' },
  dhcpExtraOptionMultiline: { code: 'ConfigInvalid', text: 'dhcp.managed.extra_options: one configuration line per entry.' },

  // boot/dhcp/dnsmasq-lines.ts
  dhcpOptionTagInvalid: {
    code: 'InvalidParameterValue',
    text: 'DHCP option tag "{tag}" may hold only letters, digits, "_", "." and "-" (with a leading "!" to negate).',
  },
  dhcpOptionNumberOutOfRange: { code: 'InvalidParameterValue', text: 'DHCP option number {option} is outside 1-254.' },
  dhcpOptionNameUnknown: { code: 'InvalidParameterValue', text: '"{option}" is not a dnsmasq DHCP option name (see dnsmasq --help dhcp).' },
  dhcpOptionNoValue: { code: 'InvalidParameterValue', text: 'DHCP option {option} has no value.' },
  dhcpOptionValueInvalid: { code: 'InvalidParameterValue', text: 'DHCP option {option} has an empty value or a control character.' },

  // boot/dhcp/dnsmasq-pid.ts (a dnsmasq the operator runs)
  dnsmasqPidFileUnreadable: {
    code: 'DriverOperationError',
    text: 'dnsmasq is not running: its PID file {pidFile} cannot be read ({reason}). Start dnsmasq, or correct dhcp.pid_file.',
  },
  dnsmasqPidFileInvalid: { code: 'DriverOperationError', text: 'dnsmasq PID file {pidFile} holds "{content}", not a PID.' },
  dnsmasqPidOtherProcess: {
    code: 'DriverOperationError',
    text: 'dnsmasq is not running: PID {pid} from {pidFile} is "{command}". Start dnsmasq with this dhcp-hostsdir and dhcp-optsdir, or correct dhcp.pid_file.',
  },
  dnsmasqPidGone: {
    code: 'DriverOperationError',
    text: 'dnsmasq is not running: PID {pid} from {pidFile} is gone. Start dnsmasq with this dhcp-hostsdir and dhcp-optsdir, or correct dhcp.pid_file.',
  },

  // boot/dhcp/dnsmasq-provider.ts and none-provider.ts
  dhcpDirsSame: { code: 'ConfigInvalid', text: 'dhcp hosts_dir and opts_dir are both {dir}: dnsmasq needs two directories.' },
  dhcpProviderClosed: { code: 'DriverOperationError', text: 'The dnsmasq DHCP provider is closed.' },
  unknownMacPolicyInvalid: { code: 'InvalidParameterValue', text: 'The unknown-MAC policy must be allow or deny, not {policy}.' },

  // boot/dhcp/managed-dnsmasq.ts ({output} is dnsmasq's last lines, joined with " | ", or "no output"; {exit} how it exited)
  dnsmasqStartedTwice: { code: 'DriverOperationError', text: 'The managed dnsmasq was started already.' },
  dnsmasqNotInstalled: {
    code: 'ConfigInvalid',
    text: 'dnsmasq is not installed at {path}: install it (Debian: apt-get install dnsmasq-base) or set dhcp.dnsmasq_path.',
  },
  dnsmasqSpawnFailed: { code: 'ConfigInvalid', text: 'cannot start {command}: {reason}' },
  dnsmasqSpawnFailedInNetns: { code: 'ConfigInvalid', text: 'cannot start {command}: {reason} (ip netns exec needs iproute2 and root)' },
  dnsmasqExitedAtStart: { code: 'ConfigInvalid', text: 'dnsmasq exited at start ({exit}): {output}' },
  dnsmasqBindTimeout: { code: 'DriverOperationError', text: 'dnsmasq did not bind its DHCP socket within {timeoutMs} ms: {output}' },
  dnsmasqNotRunning: { code: 'DriverOperationError', text: 'The managed dnsmasq is not running ({exit}): {output}' },
} as const satisfies MessageTable;
