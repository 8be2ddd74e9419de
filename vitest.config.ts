import { defineConfig } from 'vitest/config';

/**
 * The API suites: they run twice, in-process and (project `api-json`) with the conductor behind the
 * loopback JSON transport (test/support/contract.ts). The slow end-to-end suites run once.
 */
const API_SUITES = ['src/api/**/*.test.ts', 'test/api-conductor.test.ts', 'test/api-auth.test.ts', 'test/inspector-api.test.ts', 'test/agent-protocol.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'ingot',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          // The lab's VM tests run on their own (vitest.lab.config.ts, `npm run test:lab`), and so do the tests
          // against peers whose source a fresh machine lacks (vitest.peers.config.ts, `npm run test:peers`).
          exclude: ['test/lab/**', 'test/peers/**', '**/node_modules/**'],
        },
      },
      {
        extends: true,
        test: { name: 'api-json', include: API_SUITES, env: { INGOT_TEST_CONDUCTOR_TRANSPORT: 'json' } },
      },
    ],
  },
});
