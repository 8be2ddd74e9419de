/** The deploy ramdisk: Debian's kernel and an initramfs running the bundled agent on the host's Node. */
export {
  buildRamdisk,
  DEFAULT_KEEP_BUILDS,
  ramdiskInputsHash,
  RAMDISK_BUILDER_VERSION,
  RAMDISK_INITRAMFS_FILE,
  RAMDISK_KERNEL_FILE,
  RAMDISK_MODULES,
  type BuildRamdiskOptions,
  type RamdiskBuild,
  type RamdiskInputOptions,
} from './build-ramdisk.js';
export { DHCP_WAIT_S, RAMDISK_AGENT_PATH, RAMDISK_KERNEL_PARAMS } from './ramdisk-init.js';
export type { RamdiskCompression } from '../build/reproducible-cpio.js';
