/**
 * The agent's logs (Ironic's `deploy_utils.collect_ramdisk_logs`), fetched with `log.collect_system_logs`
 * when an agent-driven deployment or cleaning fails (or always/never, per `conductor.deploy_logs_collect`)
 * and stored as `<deploy_logs_dir>/<node>_<instance or none>_<UTC time>.tar.gz`, the file name Ironic
 * uses. The path is recorded in the node history, so "why did my node fail" leads to the machine's own
 * account. The text files inside are stored masked (the node's secrets and secret-looking values).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CollectSystemLogsResult } from '../../protocol/agent/commands.js';
import { fileTime } from '../../shared/clock.js';
import { messageOf } from '../../shared/errors.js';
import { nodeSecretValues, scrubValues } from '../../shared/mask.js';
import type { DriverTask } from '../interfaces/base.js';
import { maskLogArchive } from './log-archive.js';

/** How long collecting logs may take before the failure is recorded without them. */
const COLLECT_TIMEOUT_MS = 20_000;

/**
 * Fetches and stores the agent's logs when `why` calls for it (`failure` or `success`); returns the
 * file, or null when nothing was stored (not configured, no agent, the agent did not answer — the reason
 * is logged). Never throws.
 */
export async function collectAgentLogs(task: DriverTask, why: 'failure' | 'success'): Promise<string | null> {
  const { deploy_logs_collect: when, deploy_logs_dir: dir } = task.config;
  if (!dir || when === 'never' || (when === 'on_failure' && why !== 'failure')) return null;
  const node = task.node;
  if (typeof node.driver_internal_info.agent_url !== 'string') return null;
  try {
    const signal = AbortSignal.timeout(COLLECT_TIMEOUT_MS);
    const result = await task.agent.client.command<CollectSystemLogsResult>(node, 'log.collect_system_logs', {}, { wait: true, signal });
    const data = result.command_result?.system_logs;
    if (typeof data !== 'string' || data === '') return null;
    const secrets = nodeSecretValues(node);
    const archive = maskLogArchive(Buffer.from(data, 'base64'), (text) => scrubValues(text, secrets));
    await mkdir(dir, { recursive: true });
    const file = path.join(path.resolve(dir), `${node.uuid}_${node.instance_uuid ?? 'none'}_${fileTime(task.clock.now())}.tar.gz`);
    await writeFile(file, archive);
    await task.record('agent', `agent logs stored in ${file}`, why === 'failure' ? 'WARNING' : 'INFO', null);
    return file;
  } catch (err) {
    task.logger.warn({ node: node.uuid }, `could not collect the agent logs of node ${node.uuid}: ${messageOf(err)}`);
    return null;
  }
}
