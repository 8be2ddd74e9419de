/** The test harness itself: startServer reports failures with the child's output and cleans up. */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startServer } from './server.js';

describe('startServer', () => {
  it('starts ingot serve on loopback, stops it with SIGTERM and removes its data directory', async () => {
    const server = await startServer();
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await fetch(`${server.url}/v1/`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { id: string }).id).toBe('v1');
      expect(existsSync(server.dataDir)).toBe(true);
      const pid = server.pid;
      expect(await server.stop()).toEqual({ code: 0, signal: null });
      expect(() => process.kill(pid, 0)).toThrow();
    } finally {
      await server.dispose();
    }
    expect(existsSync(server.dataDir)).toBe(false);
  });

  it('rejects with the child’s output when serve cannot start', async () => {
    await expect(startServer({ args: ['--no-such-flag'] })).rejects.toThrow(/exited .*before listening:[\s\S]*no-such-flag/);
  });
});
