import { describe, expect, it } from 'vitest';
import { moduleLoadOrder, moduleName, parseModulesBuiltin, parseModulesDep, partitionModules } from './kernel-modules.js';

// The virtio lines of Debian 6.1's modules.dep (as `depmod -b` writes them), plus e1000 and a softdep-free chain.
const DEP = `kernel/drivers/virtio/virtio.ko:
kernel/drivers/virtio/virtio_ring.ko:
kernel/drivers/virtio/virtio_pci_modern_dev.ko:
kernel/drivers/virtio/virtio_pci_legacy_dev.ko:
kernel/drivers/virtio/virtio_pci.ko: kernel/drivers/virtio/virtio_pci_legacy_dev.ko kernel/drivers/virtio/virtio_pci_modern_dev.ko kernel/drivers/virtio/virtio.ko kernel/drivers/virtio/virtio_ring.ko
kernel/net/core/failover.ko:
kernel/drivers/net/net_failover.ko: kernel/net/core/failover.ko
kernel/drivers/net/virtio_net.ko: kernel/drivers/net/net_failover.ko kernel/net/core/failover.ko kernel/drivers/virtio/virtio.ko kernel/drivers/virtio/virtio_ring.ko
kernel/drivers/block/virtio_blk.ko: kernel/drivers/virtio/virtio.ko kernel/drivers/virtio/virtio_ring.ko
kernel/drivers/net/ethernet/intel/e1000/e1000.ko:
kernel/lib/crc-t10dif.ko.xz:
`;

const base = (f: string) => f.slice(f.lastIndexOf('/') + 1).replace(/\.ko.*$/, '');

describe('kernel modules', () => {
  it('names modules as the kernel does', () => {
    expect(moduleName('kernel/lib/crc-t10dif.ko.xz')).toBe('crc_t10dif');
    expect(moduleName('kernel/drivers/virtio/virtio_pci.ko')).toBe('virtio_pci');
    expect(parseModulesDep(DEP).get('crc_t10dif')?.file).toBe('kernel/lib/crc-t10dif.ko.xz');
  });

  it('orders dependencies before the modules that need them, each once', () => {
    const order = moduleLoadOrder(parseModulesDep(DEP), ['virtio_pci', 'virtio_net', 'virtio_blk', 'e1000']).map(base);
    // The order that insmod accepts on Debian's kernel (measured on the lab machines).
    expect(order).toEqual(['virtio_ring', 'virtio', 'virtio_pci_modern_dev', 'virtio_pci_legacy_dev', 'virtio_pci', 'failover', 'net_failover', 'virtio_net', 'virtio_blk', 'e1000']);
  });

  it('accepts dashes for underscores and skips built-in modules', () => {
    const builtin = parseModulesBuiltin('kernel/net/packet/af_packet.ko\n');
    expect(moduleLoadOrder(parseModulesDep(DEP), ['crc_t10dif', 'af-packet'], builtin).map(base)).toEqual(['crc-t10dif']);
  });

  it('splits wanted modules into those a kernel flavour has (as modules or built in) and those it lacks', () => {
    const builtin = parseModulesBuiltin('kernel/drivers/nvme/host/nvme.ko\n');
    expect(partitionModules(parseModulesDep(DEP), ['virtio_net', 'e1000e', 'nvme', 'crc-t10dif', 'ahci'], builtin)).toEqual({ present: ['virtio_net', 'nvme', 'crc-t10dif'], absent: ['e1000e', 'ahci'] });
  });

  it('names modules the kernel does not have', () => {
    expect(() => moduleLoadOrder(parseModulesDep(DEP), ['virtio_net', 'no_such', 'nor_this'])).toThrow(/no module no_such, nor_this/);
  });

  it('rejects a dependency without a line and a cycle', () => {
    expect(() => moduleLoadOrder(parseModulesDep('a.ko: b.ko\n'), ['a'])).toThrow(/names b\.ko as a dependency/);
    expect(() => moduleLoadOrder(parseModulesDep('a.ko: b.ko\nb.ko: a.ko\n'), ['a'])).toThrow(/cycle: a\.ko -> b\.ko -> a\.ko/);
  });
});
