import { describe, it, expect } from 'vitest';
import { parseCpuinfo } from './cpu.js';
import { parseLsblk } from './disks.js';
import { parseDmidecodeMemoryMib, parseMeminfoTotal, parseSmbiosMemoryMib } from './memory.js';
import { pickAddress } from './network.js';
import { parseLanPrint } from './system-info.js';

// Two sockets, two logical CPUs each (trimmed real x86_64 /proc/cpuinfo stanzas).
const CPUINFO_X86 = [0, 1, 2, 3]
  .map(
    (i) => `processor\t: ${i}
vendor_id\t: GenuineIntel
model name\t: Intel(R) Xeon(R) Gold 6226R CPU @ 2.90GHz
cpu MHz\t\t: ${2900 + i}.000
physical id\t: ${i < 2 ? 0 : 1}
siblings\t: 2
flags\t\t: fpu vme de pse tsc msr pae vmx aes avx2
bogomips\t: 5800.00
`,
  )
  .join('\n');

const CPUINFO_ARM = `processor\t: 0
BogoMIPS\t: 50.00
Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics
CPU implementer\t: 0x41
CPU part\t: 0xd0c

processor\t: 1
BogoMIPS\t: 50.00
Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics
CPU implementer\t: 0x41
CPU part\t: 0xd0c
`;

// Captured from a VM (util-linux 2.38): zram0 must be skipped.
const LSBLK_NEW = JSON.stringify({
  blockdevices: [
    { name: 'zram0', model: null, size: 0, rota: false, wwn: null, serial: null, vendor: null, hctl: null, type: 'disk', uuid: null },
    { name: 'vda', model: null, size: 274877906944, rota: true, wwn: null, serial: null, vendor: '0x1af4', hctl: null, type: 'disk', uuid: null },
    { name: 'sda', model: 'SAMSUNG MZ7LH480', size: 480103981056, rota: false, wwn: '0x5002538e4098a1b2', serial: 'S45PNA0M', vendor: 'ATA     ', hctl: '0:0:0:0', type: 'disk', uuid: null,
      children: [{ name: 'sda1', size: 1048576, type: 'part' }] },
    { name: 'sr0', model: 'QEMU DVD-ROM', size: 1073741312, rota: true, wwn: null, serial: null, vendor: 'QEMU', hctl: '1:0:0:0', type: 'rom', uuid: null },
    { name: 'loop0', size: 100, rota: false, type: 'loop' },
    { name: 'ram0', size: 4194304, rota: false, type: 'disk' },
  ],
});

// util-linux < 2.33 prints every value as a string.
const LSBLK_OLD = '{"blockdevices": [{"name": "sdb", "model": "ST4000NM0035", "size": "4000787030016", "rota": "1", "wwn": null, "serial": "ZC1", "vendor": "ATA", "hctl": "2:0:0:0", "type": "disk", "uuid": null}]}';

describe('parseCpuinfo', () => {
  it('counts logical CPUs and sockets and takes model, MHz and flags from the first stanza', () => {
    expect(parseCpuinfo(CPUINFO_X86)).toEqual({
      model_name: 'Intel(R) Xeon(R) Gold 6226R CPU @ 2.90GHz',
      frequency: '2900.000',
      count: 4,
      flags: ['fpu', 'vme', 'de', 'pse', 'tsc', 'msr', 'pae', 'vmx', 'aes', 'avx2'],
      socket_count: 2,
    });
  });
  it('reads arm Features and leaves unknowns null', () => {
    const c = parseCpuinfo(CPUINFO_ARM);
    expect(c.count).toBe(2);
    expect(c.model_name).toBeNull();
    expect(c.socket_count).toBeNull();
    expect(c.flags).toContain('asimd');
  });
});

describe('memory parsers', () => {
  it('MemTotal kB -> bytes', () => {
    expect(parseMeminfoTotal('MemTotal:       24683656 kB\nMemFree:        23482192 kB\n')).toBe(24683656 * 1024);
    expect(parseMeminfoTotal('MemFree: 1 kB\n')).toBeNull();
  });

  it('sums the Size lines of dmidecode -t 17, skipping empty slots', () => {
    const text = `Handle 0x1100, DMI type 17, 84 bytes
Memory Device
\tSize: 16 GB
\tLocator: DIMM_A1
Handle 0x1101, DMI type 17, 84 bytes
Memory Device
\tSize: No Module Installed
Handle 0x1102, DMI type 17, 84 bytes
Memory Device
\tSize: 8192 MB
\tVolatile Size: 8 GB
`;
    expect(parseDmidecodeMemoryMib(text)).toBe(16384 + 8192);
    expect(parseDmidecodeMemoryMib('Memory Device\n\tSize: No Module Installed\n')).toBeNull();
  });

  it('sums type 17 sizes of a raw SMBIOS table (MiB, KiB and extended sizes)', () => {
    const struct = (type: number, length: number, fill: (v: DataView) => void, strings: string[] = []) => {
      const body = new Uint8Array(length);
      const v = new DataView(body.buffer);
      body[0] = type;
      body[1] = length;
      fill(v);
      const str = strings.length ? Buffer.from(`${strings.join('\0')}\0\0`) : Buffer.from([0, 0]);
      return Buffer.concat([body, str]);
    };
    const table = Buffer.concat([
      struct(0, 0x18, () => {}, ['BIOS vendor', '1.2.3']),
      struct(17, 0x28, (v) => v.setUint16(0x0c, 16384, true), ['DIMM_A1']), // 16 GiB
      struct(17, 0x28, (v) => v.setUint16(0x0c, 0, true)), // empty slot
      struct(17, 0x28, (v) => v.setUint16(0x0c, 0x8000 | 1024, true)), // 1024 KiB = 1 MiB
      struct(17, 0x28, (v) => { v.setUint16(0x0c, 0x7fff, true); v.setUint32(0x1c, 65536, true); }), // 64 GiB extended
      struct(17, 0x28, (v) => v.setUint16(0x0c, 0xffff, true)), // unknown
      struct(127, 4, () => {}),
    ]);
    expect(parseSmbiosMemoryMib(table)).toBe(16384 + 1 + 65536);
    expect(parseSmbiosMemoryMib(struct(127, 4, () => {}))).toBeNull();
  });
});

describe('parseLsblk', () => {
  it('keeps TYPE disk only, skips zram/ram/loop, names /dev/…, trims vendor', () => {
    const disks = parseLsblk(LSBLK_NEW);
    expect(disks.map((d) => [d.name, d.size, d.rotational])).toEqual([
      ['/dev/vda', 274877906944, true],
      ['/dev/sda', 480103981056, false],
    ]);
    expect(disks[1]).toMatchObject({ model: 'SAMSUNG MZ7LH480', vendor: 'ATA', serial: 'S45PNA0M', wwn: '0x5002538e4098a1b2', hctl: '0:0:0:0', by_path: null });
    expect(disks[0]).toMatchObject({ model: null, vendor: '0x1af4', serial: null, wwn: null });
  });
  it('reads the string-valued output of old util-linux', () => {
    expect(parseLsblk(LSBLK_OLD)).toMatchObject([{ name: '/dev/sdb', size: 4000787030016, rotational: true, model: 'ST4000NM0035' }]);
  });
  it('rejects text that is not lsblk JSON', () => {
    expect(() => parseLsblk('{"x": 1}')).toThrow(/blockdevices/);
    expect(() => parseLsblk('lsblk: unknown column')).toThrow();
  });
});

describe('other parsers', () => {
  it('parseLanPrint reads IP and MAC address', () => {
    const text = `Set in Progress         : Set Complete
IP Address Source       : Static Address
IP Address              : 10.20.30.40
Subnet Mask             : 255.255.255.0
MAC Address             : 0C:C4:7A:11:22:33
`;
    expect(parseLanPrint(text)).toEqual({ address: '10.20.30.40', mac: '0c:c4:7a:11:22:33' });
    expect(parseLanPrint('')).toEqual({ address: null, mac: null });
  });
  it('pickAddress prefers global IPv6 over link-local and skips internal', () => {
    const list = [
      { family: 'IPv6' as const, address: 'fe80::1', internal: false },
      { family: 'IPv6' as const, address: 'fd00::2', internal: false },
      { family: 'IPv4' as const, address: '127.0.0.1', internal: true },
    ];
    expect(pickAddress(list, 'IPv6')).toBe('fd00::2');
    expect(pickAddress(list, 'IPv4')).toBeNull();
    expect(pickAddress(list.slice(0, 1), 'IPv6')).toBe('fe80::1');
  });
});
