/** System vendor (DMI), boot mode, BMC address. */
import type { Inventory } from '../../protocol/agent/inventory.js';
import type { AgentSystem } from '../system.js';

const DMI = '/sys/class/dmi/id';

/** Reads /sys/class/dmi/id; without DMI (many VMs, most arm boards) the fields are '' as IPA sends them. */
export async function readSystemVendor(system: AgentSystem, problems: string[]): Promise<Inventory['system_vendor']> {
  const read = async (f: string) => (await system.readText(`${DMI}/${f}`))?.trim() ?? null;
  const [manufacturer, product, serial, biosVendor, biosVersion, biosDate] = await Promise.all(
    ['sys_vendor', 'product_name', 'product_serial', 'bios_vendor', 'bios_version', 'bios_date'].map(read),
  );
  if (manufacturer === null && product === null) problems.push(`${DMI} unreadable: system vendor, product and serial unknown (no SMBIOS/DMI on this machine)`);
  else if (serial === null) problems.push(`${DMI}/product_serial unreadable: serial number unknown (readable by root only)`);
  const vendor: Inventory['system_vendor'] = { manufacturer: manufacturer ?? '', product_name: product ?? '', serial_number: serial ?? '' };
  if (biosVendor !== null || biosVersion !== null || biosDate !== null) {
    vendor.firmware = { vendor: biosVendor ?? '', version: biosVersion ?? '', build_date: biosDate ?? '' };
  }
  return vendor;
}

/** UEFI when the kernel booted through EFI (it then exposes /sys/firmware/efi), else BIOS. */
export async function readBootMode(system: AgentSystem): Promise<'uefi' | 'bios'> {
  return (await system.exists('/sys/firmware/efi')) ? 'uefi' : 'bios';
}

/** `IP Address` and `MAC Address` of `ipmitool lan print` output. */
export function parseLanPrint(text: string): { address: string | null; mac: string | null } {
  const field = (name: string) => new RegExp(`^${name}\\s*:\\s*(\\S+)\\s*$`, 'm').exec(text)?.[1] ?? null;
  return { address: field('IP Address'), mac: field('MAC Address')?.toLowerCase() ?? null };
}

const IPMI_DEVICES = ['/dev/ipmi0', '/dev/ipmi/0', '/dev/ipmidev/0'];

/**
 * The BMC's IPv4 and MAC as the machine's own BMC reports them over the in-band interface (the ipmi_si
 * driver's /dev/ipmi0) with `ipmitool lan print`. No device or no ipmitool: null and a problem.
 */
export async function readBmc(system: AgentSystem, problems: string[]): Promise<{ address: string | null; mac: string | null }> {
  let device = false;
  for (const d of IPMI_DEVICES) if (await system.exists(d)) device = true;
  if (!device) {
    problems.push('no IPMI device (/dev/ipmi0): BMC address unknown (load ipmi_si and ipmi_devintf, or the machine has no BMC)');
    return { address: null, mac: null };
  }
  const r = await system.run('ipmitool', ['lan', 'print'], { timeoutMs: 15_000 });
  if (r.missing) {
    problems.push('ipmitool not found: BMC address unknown (install ipmitool)');
    return { address: null, mac: null };
  }
  if (!r.ok) {
    problems.push(`ipmitool lan print failed: BMC address unknown (${r.error})`);
    return { address: null, mac: null };
  }
  return parseLanPrint(r.stdout);
}
