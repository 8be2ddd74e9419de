/** What the lab's image builders share: host tools, Debian's kernel, kernel modules, reproducible archives. */
export { BUILD_TOOLS, findProgram, requireBuildTools, type BuildToolName } from './build-tools.js';
export { DEFAULT_KERNEL_METAPACKAGE, fetchDebianKernel, resolveKernelPackage, type DebianKernel, type KernelPackage } from './debian-kernel.js';
export { REPRODUCIBLE_EPOCH_S, type RamdiskCompression } from './reproducible-cpio.js';
