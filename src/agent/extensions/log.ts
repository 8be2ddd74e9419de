/**
 * The `log` extension (IPA `extensions/log.py`): `collect_system_logs` answers a gzipped tar, base64,
 * of the logs the agent can read (the same files as the inspection `logs` collector) plus its own log.
 */
import { gzipSync } from 'node:zlib';
import type { CollectSystemLogsResult } from '../../protocol/agent/commands.js';
import type { CommandRegistry } from '../api/command-registry.js';
import { gatherLogs } from '../collectors/logs.js';
import { ustar } from '../collectors/tar.js';
import type { ExtensionContext } from './context.js';

/** Registers `log.collect_system_logs` (sync). */
export function registerLog(registry: CommandRegistry, ctx: ExtensionContext): void {
  registry.register('log', 'collect_system_logs', {
    async: false,
    run: async (): Promise<CollectSystemLogsResult> => {
      const entries = await gatherLogs(ctx.system);
      entries.push({ name: 'ingot-agent.log', data: Buffer.from(ctx.logText()), mtime: Math.floor(Date.now() / 1000) });
      return { system_logs: gzipSync(ustar(entries)).toString('base64') };
    },
  });
}
