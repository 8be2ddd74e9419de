/**
 * The text Ingot writes for dnsmasq: one host file per MAC in `dhcp-hostsdir` and one option file per
 * node tag in `dhcp-optsdir` (the layout of Ironic's `ironic/dhcp/dnsmasq.py` and PXE filter). Each
 * file starts with a comment recording Ingot's state for that MAC, so a restarted Ingot reads it back.
 */
import { fail } from '../../shared/errors.js';
import type { DhcpOption, UnknownPolicy } from './provider.js';

/** The PXE filter's record for one MAC. */
export type FilterMark = 'allow' | 'deny' | 'none';

/** Everything Ingot knows about one MAC; its host file is rendered from this alone. */
export interface HostState {
  mac: string;
  /** Node whose options the MAC carries, or null. */
  node: string | null;
  /** dnsmasq tag of the node's current option file, or null when the MAC has no options. */
  tag: string | null;
  filter: FilterMark;
}

/** Tag every Ingot-booted host carries besides its node tag (for operators' own `tag:ingot` rules). */
export const INGOT_TAG = 'ingot';

/** Host file holding the wildcard entry for MACs without a file of their own. */
export const UNKNOWN_HOSTS_FILE = 'ingot-unknown-hosts.conf';

const WILDCARD_MAC = '*:*:*:*:*:*';
const HOST_FILE = /^ingot-([0-9a-f]{2}(?:-[0-9a-f]{2}){5})\.conf$/;
const HEADER = /^# ingot: node=(\S+) tag=(\S+) filter=(allow|deny|none)$/m;
const TAG = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const OPTION_NAME = /^[a-z0-9][a-z0-9+-]*$/;

/** Host file name of a normalized MAC: `ingot-52-54-00-12-34-56.conf`. */
export function hostFileName(mac: string): string {
  return `ingot-${mac.replace(/:/g, '-')}.conf`;
}

/** The MAC a host file name belongs to, or undefined for other files. */
export function macOfHostFile(name: string): string | undefined {
  return HOST_FILE.exec(name)?.[1]?.replace(/-/g, ':');
}

/** Option file name of a node tag. */
export function optsFileName(tag: string): string {
  return `${tag}.conf`;
}

/** The node tag an option file name belongs to, or undefined for other files. */
export function tagOfOptsFile(name: string): string | undefined {
  if (!name.startsWith('ingot-') || !name.endsWith('.conf') || HOST_FILE.test(name) || name === UNKNOWN_HOSTS_FILE) return undefined;
  return name.slice(0, -'.conf'.length);
}

/**
 * The dnsmasq entry of a MAC. Node options win over the filter: a MAC Ingot boots is always answered
 * and tagged; otherwise a denied MAC is ignored, an allowed one answered, and one the filter holds
 * nothing for follows the unknown policy (Ironic's handling of removed MACs), because dnsmasq keeps a
 * deleted file's entry until it restarts: the file is rewritten, never deleted.
 */
export function hostEntry(state: HostState, unknown: UnknownPolicy | null): string {
  if (state.tag) return `${state.mac},set:${state.tag},set:${INGOT_TAG}`;
  const ignored = state.filter === 'deny' || (state.filter === 'none' && unknown === 'deny');
  return ignored ? `${state.mac},ignore` : state.mac;
}

/** The whole host file of a MAC. */
export function renderHostFile(state: HostState, unknown: UnknownPolicy | null): string {
  return `# ingot: node=${state.node ?? '-'} tag=${state.tag ?? '-'} filter=${state.filter}\n${hostEntry(state, unknown)}\n`;
}

/** Reads back the state a host file records; undefined when it is not one Ingot wrote. */
export function parseHostFile(mac: string, text: string): HostState | undefined {
  const m = HEADER.exec(text);
  if (!m) return undefined;
  const [, node, tag, filter] = m;
  return { mac, node: node === '-' ? null : node!, tag: tag === '-' ? null : tag!, filter: filter as FilterMark };
}

/** The wildcard file for MACs without a host file (ironic-inspector's `*:*:*:*:*:*[,ignore]`). */
export function renderUnknownHostsFile(policy: UnknownPolicy): string {
  return `# ingot: unknown=${policy}\n${WILDCARD_MAC}${policy === 'deny' ? ',ignore' : ''}\n`;
}

/** Reads back the policy of the wildcard file. */
export function parseUnknownHostsFile(text: string): UnknownPolicy | undefined {
  return /^# ingot: unknown=(allow|deny)$/m.exec(text)?.[1] as UnknownPolicy | undefined;
}

/**
 * A node tag: the node UUID for reading dnsmasq's log, plus a random suffix. A new tag per update is
 * what makes updates safe without reloading dnsmasq: options read from a file stay in dnsmasq's memory
 * until it restarts, so changed options go to a new tag and the old tag simply stops being set.
 */
export function nodeTag(nodeUuid: string, random: string): string {
  return `ingot-${nodeUuid.replace(/[^A-Za-z0-9-]/g, '-')}-${random}`;
}

/** The option file of a node tag: each option limited to clients carrying the tag. */
export function renderOptsFile(node: string, tag: string, options: readonly DhcpOption[]): string {
  return `# ingot: node=${node} tag=${tag}\n${options.map((o) => optionLine(tag, o)).join('\n')}${options.length ? '\n' : ''}`;
}

/** One `dhcp-option` line of an option file (dnsmasq syntax without the `dhcp-option=`). */
export function optionLine(tag: string | null, option: DhcpOption): string {
  const tags = [...(tag ? [tag] : []), ...(option.tags ?? [])].map((t) => {
    if (!TAG.test(t.replace(/^!/, ''))) throw fail('dhcpOptionTagInvalid', { tag: t });
    return `tag:${t}`;
  });
  return [...tags, optionKey(option.option), ...values(option)].join(',');
}

function optionKey(option: number | string): string {
  if (typeof option === 'number' || /^\d+$/.test(option)) {
    const n = Number(option);
    if (!Number.isInteger(n) || n < 1 || n > 254) throw fail('dhcpOptionNumberOutOfRange', { option });
    return String(n);
  }
  const name = option.replace(/^option:/, '');
  if (!OPTION_NAME.test(name)) throw fail('dhcpOptionNameUnknown', { option });
  return `option:${name}`;
}

function values(option: DhcpOption): string[] {
  const list = typeof option.value === 'string' ? [option.value] : [...option.value];
  if (list.length === 0) throw fail('dhcpOptionNoValue', { option: option.option });
  return list.map((v) => {
    // eslint-disable-next-line no-control-regex
    if (v === '' || /[\x00-\x1f\x7f]/.test(v)) throw fail('dhcpOptionValueInvalid', { option: option.option });
    // NOTE: dnsmasq splits values at commas and starts comments at "#"; a quoted string is taken whole
    // with \\ and \" as escapes (dnsmasq(8), "quoted strings").
    return /[,"#\s\\]/.test(v) ? `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"` : v;
  });
}
