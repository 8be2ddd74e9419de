/** MAC address helpers of validation and the interface hooks (the address rules are shared/mac.ts). */
import { isHardwareAddress, isMac48, normalizeMac } from '../shared/mac.js';

export { isHardwareAddress, isMac48, normalizeMac };

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
