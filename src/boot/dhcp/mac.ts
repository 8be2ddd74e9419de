/** MAC address checks shared by the DHCP providers. */
import { fail } from '../../shared/errors.js';

const MAC = /^[0-9a-f]{2}([:-])[0-9a-f]{2}(\1[0-9a-f]{2}){4}$/;

/**
 * `mac` as dnsmasq and Ironic's ports write it: six lower-case hex octets separated by colons.
 * Accepts colons or dashes; throws InvalidParameterValue for anything else (only Ethernet MACs can be
 * written into host entries).
 */
export function normalizeMac(mac: string): string {
  const lower = mac.trim().toLowerCase();
  if (!MAC.test(lower)) throw fail('InvalidParameterValue', `"${mac}" is not an Ethernet MAC address (expected six hex octets, e.g. 52:54:00:12:34:56).`);
  return lower.replace(/-/g, ':');
}

/** Normalized, de-duplicated MACs in first-seen order. */
export function normalizeMacs(macs: Iterable<string>): string[] {
  return [...new Set([...macs].map(normalizeMac))];
}
