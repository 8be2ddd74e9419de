import { defineConfig } from 'vitest/config';

/**
 * The lab's tests boot QEMU VMs under TCG. They run after the rest of the suite and one file at a
 * time: one lab network per host (src/lab/qemu-lab/layout.ts), and emulated CPUs need the host's cores.
 */
export default defineConfig({
  test: {
    include: ['test/lab/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
  },
});
