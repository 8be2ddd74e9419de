import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The lab's VM tests run on their own (vitest.lab.config.ts, `npm run test:lab`), and so do the tests
    // against peers whose source a fresh machine lacks (vitest.peers.config.ts, `npm run test:peers`).
    exclude: ['test/lab/**', 'test/peers/**', '**/node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
