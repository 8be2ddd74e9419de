import { defineConfig } from 'vitest/config';

/**
 * Tests against independent peers whose source is not in the repository nor in Debian: sushy-tools'
 * Redfish emulator, taken from the directory INGOT_SUSHY_TOOLS_DIR names (test/support/sushy-emulator.ts).
 * They run on their own (`npm run test:peers`), never in `npm test`: a fresh machine does not have the source.
 */
export default defineConfig({
  test: {
    include: ['test/peers/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
