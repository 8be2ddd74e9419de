/** MAC address helpers shared by validation and the interface hooks. */

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

/** Lower case, colon separated. */
export function normalizeMac(text: string): string {
  return text.toLowerCase().replace(/-/g, ':');
}

/**
 * The MAC of the boot NIC from `inventory.boot.pxe_interface`, which may be in pxelinux form
 * (`01-aa-bb-cc-dd-ee-ff`, the BOOTIF kernel parameter) or a plain MAC; null when absent or unreadable.
 */
export function pxeMacFrom(value: string | null | undefined): string | null {
  if (!value) return null;
  const text = value.trim();
  // NOTE: pxelinux BOOTIF is "<ARP hardware type>-<mac with dashes>"; Ironic's get_pxe_mac drops the prefix.
  const m = /^[0-9a-f]{2}-([0-9a-f]{2}(-[0-9a-f]{2}){5})$/i.exec(text);
  if (m) return normalizeMac(m[1]!);
  return isMac48(text) ? normalizeMac(text) : null;
}
