/** Hardware addresses as Ingot reads them everywhere (inspection data, DHCP host entries): one rule for all. */

const MAC48 = /^[0-9a-f]{2}([:-])[0-9a-f]{2}(\1[0-9a-f]{2}){4}$/i;
/** IPoIB hardware addresses are 20 octets; agents report them as they are. */
const MAC_IB = /^[0-9a-f]{2}(:[0-9a-f]{2}){19}$/i;

/** True for a 6-octet Ethernet MAC (`aa:bb:cc:dd:ee:ff` or with dashes), as oslo `is_valid_mac`. */
export function isMac48(text: string): boolean {
  return MAC48.test(text);
}

/** True for any hardware address an agent may report: a 6-octet MAC or a 20-octet InfiniBand address. */
export function isHardwareAddress(text: string): boolean {
  return MAC48.test(text) || MAC_IB.test(text);
}

/** Lower case, colon separated (the caller checked the address). */
export function normalizeMac(text: string): string {
  return text.toLowerCase().replace(/-/g, ':');
}
