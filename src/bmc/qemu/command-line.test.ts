import { describe, expect, it } from 'vitest';
import { bootOrder, localMediaPath, qemuArgs, qemuPaths } from './command-line.js';
import { qemuProfile, resolveSpec, uuidFromName } from './spec.js';

const spec = (extra: Record<string, unknown> = {}) =>
  resolveSpec({ name: 'vm-1', username: 'u', password: 'p', workDir: '/w', disk: { path: '/w/disk,1.raw', sizeBytes: 1 << 30 }, nics: [{ mac: '52:54:00:00:00:01' }, { mac: '52:54:00:00:00:02', tap: 'tap-vm1' }], ...extra });

/** The value of the `-device` argument that starts with `prefix`. */
function device(args: string[], prefix: string): string | undefined {
  return args.find((a, i) => args[i - 1] === '-device' && a.startsWith(prefix));
}

describe('QEMU command line', () => {
  it('orders boot devices with the chosen one first and the others after it', () => {
    expect(bootOrder('pxe', 2)).toEqual(['net0', 'net1', 'disk0', 'cd0']);
    expect(bootOrder('cdrom', 1)).toEqual(['cd0', 'disk0', 'net0']);
    expect(bootOrder('none', 1)).toEqual(['disk0', 'net0', 'cd0']);
    expect(bootOrder('disk', 0)).toEqual(['disk0', 'cd0']);
  });

  it('gives each device its bootindex, the MACs, the UUID and the serial, and escapes commas in paths', () => {
    const s = spec();
    const args = qemuArgs(s, qemuPaths('/w'), bootOrder('pxe', 2), null);
    expect(device(args, 'virtio-net-pci,netdev=net0-backend')).toContain('mac=52:54:00:00:00:01,speed=1000,duplex=full,bootindex=0');
    expect(device(args, 'virtio-net-pci,netdev=net1-backend')).toContain('bootindex=1');
    expect(device(args, 'virtio-blk-pci')).toContain(`serial=${s.serial}-0,bootindex=2`);
    expect(device(args, 'ide-cd')).toContain('bootindex=3');
    expect(args).toContain('tap,id=net1-backend,ifname=tap-vm1,script=no,downscript=no');
    expect(args).toContain('hubport,id=net0-backend,hubid=0');
    expect(args).toContain('file=/w/disk,,1.raw,format=raw,if=none,id=disk0-drive');
    expect(args.join(' ')).toContain(`-uuid ${uuidFromName('vm-1')}`);
    expect(args.join(' ')).toContain('-accel tcg');
    expect(qemuArgs(spec({ accel: 'kvm' }), qemuPaths('/w'), bootOrder('pxe', 2), null).join(' ')).toContain('-accel kvm');
    expect(args.join(' ')).toContain('-no-shutdown -action reboot=shutdown');
    expect(args).toContain('virtio-rng-pci');
    expect(args.some((a) => a.startsWith('if=pflash'))).toBe(false);
  });

  it('attaches a local CD image and knows which media URLs are local', () => {
    const args = qemuArgs(spec(), qemuPaths('/w'), bootOrder('cdrom', 2), '/img/boot.iso');
    expect(args).toContain('if=none,id=cd0-drive,media=cdrom,readonly=on,format=raw,file=/img/boot.iso');
    expect(localMediaPath('file:///img/a%20b.iso')).toBe('/img/a b.iso');
    expect(localMediaPath('/img/x.iso')).toBe('/img/x.iso');
    expect(localMediaPath('http://127.0.0.1/x.iso')).toBeNull();
    expect(localMediaPath(null)).toBeNull();
  });

  it('derives the profile from the spec and rejects bad specs', () => {
    const s = spec({ cpus: 2, memoryMiB: 1024 });
    expect(qemuProfile(s)).toMatchObject({ manufacturer: 'QEMU', cpu: { count: 2 }, memory_mib: 1024, disks: [{ name: '/dev/vda', size_bytes: 1 << 30 }], nics: [{ name: 'eth0', mac: '52:54:00:00:00:01' }, { name: 'eth1' }], boot_mode: 'bios' });
    expect(() => spec({ nics: [{ mac: 'nope' }] })).toThrow(/invalid MAC/);
    expect(() => spec({ name: 'bad name' })).toThrow(/name/);
    expect(() => spec({ cpus: 0 })).toThrow(/cpus/);
    expect(() => spec({ nics: [{ mac: '52:54:00:00:00:01', tap: 'x'.repeat(16) }] })).toThrow(/tap/);
    expect(() => spec({ bootMode: 'uefi', ovmf: { code: '/nonexistent', vars: '/nonexistent' } })).toThrow(/apt-get install ovmf/);
  });
});
