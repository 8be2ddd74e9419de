/**
 * The `standby` extension (IPA `extensions/standby.py`): `prepare_image` writes a raw whole-disk image
 * and the config drive to the root disk; `power_off` and `run_image` end the ramdisk; `sync` flushes
 * buffers; `get_partition_uuids` tells the conductor the disk identifier of what was written.
 */
import type { ImageInfo, PartitionUuids, PrepareImageParams } from '../../protocol/agent/commands.js';
import { messageOf } from '../../shared/errors.js';
import type { CommandRegistry } from '../api/command-registry.js';
import { AgentRestError, configDriveError, imageDownloadError, imageWriteError, invalidCommandParams, toAgentError } from '../api/errors.js';
import { chooseRootDisk } from '../deploy-host.js';
import { decodeConfigDrive, writeConfigDrive } from '../disk/config-drive.js';
import { withDisk } from '../disk/disk-target.js';
import { checksumIsUrl, expectedChecksum, pickChecksum, validateImageInfo } from '../disk/image-checksum.js';
import { streamImage } from '../disk/image-writer.js';
import { diskIdentifier } from '../disk/mbr.js';
import { httpRequest } from '../http-client.js';
import type { ExtensionContext } from './context.js';

/** What the standby extension remembers between commands. */
export interface StandbyState {
  /** Set by prepare_image; null before (`get_partition_uuids` then answers {}). */
  partitionUuids: PartitionUuids | null;
  cachedImageId: string | null;
}

/** The file at `url` (a checksum file or a config drive of image `imageId`), with the download retries. */
async function fetchText(ctx: ExtensionContext, url: string, what: 'checksumFileDownloadFailed' | 'configDriveDownloadFailed', imageId: string): Promise<Buffer> {
  let last = '';
  for (let n = 0; n <= ctx.download.retries; n++) {
    try {
      const a = await httpRequest(url, { timeoutMs: ctx.download.timeoutMs, insecure: ctx.insecure, signal: ctx.signal, maxBytes: 128 * 1024 * 1024 });
      if (a.status === 200) return a.body;
      last = `Received status code ${a.status} from ${url}, expected 200`;
      if (a.status < 500) break;
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      last = messageOf(err);
    }
    if (n < ctx.download.retries) await new Promise((r) => setTimeout(r, ctx.download.retryIntervalMs));
  }
  throw imageDownloadError(what, { image: imageId, url, reason: last });
}

/**
 * Writes the image (and config drive) to the root disk and returns IPA's message
 * `image (<id>) written to device <dev> root_uuid=<disk id>`.
 */
export async function prepareImage(ctx: ExtensionContext, state: StandbyState, params: PrepareImageParams): Promise<string> {
  const info = params.image_info;
  const configdrive = params.configdrive ?? info.configdrive ?? null;
  const disks = await ctx.host.disks();
  const root = chooseRootDisk(disks, ctx.node());
  if (!root.path) throw imageWriteError('simulatedDiskNoFile', { disk: root.name });
  const device = root.name;
  if (info.image_type === 'partition') {
    throw invalidCommandParams('imagePartitionImage', { image: info.id });
  }
  if (info.disk_format && info.disk_format !== 'raw') {
    throw invalidCommandParams('imageNotRaw', { image: info.id, format: info.disk_format });
  }
  if (state.cachedImageId !== info.id) {
    const expected = expectedChecksum(info, ctx.allowMd5());
    if (checksumIsUrl(expected)) {
      const text = (await fetchText(ctx, expected.value, 'checksumFileDownloadFailed', info.id)).toString('utf8');
      try {
        expected.value = pickChecksum(text, info.urls[0] as string, expected.value);
      } catch (err) {
        throw imageDownloadError('imageDownloadFailed', { image: expected.value, reason: messageOf(err) });
      }
    }
    const started = Date.now();
    const written = await withDisk(root.path, (disk) =>
      streamImage({ info, disk, expected, ...ctx.download, insecure: ctx.insecure, signal: ctx.signal, log: (m) => ctx.log(m) }),
    );
    ctx.log(
      `image ${info.id} streamed from ${written.url} onto ${device} in ${((Date.now() - started) / 1000).toFixed(1)} s: ${written.bytes} bytes, ${expected.algo} ${written.digest}` +
        (written.skippedBytes ? `, ${written.skippedBytes} zero bytes skipped` : ''),
    );
    state.cachedImageId = info.id;
  }
  let rootUuid: string;
  try {
    rootUuid = await withDisk(root.path, async (disk) => {
      if (configdrive) {
        const raw = /^https?:\/\//i.test(configdrive) ? await fetchText(ctx, configdrive, 'configDriveDownloadFailed', info.id) : configdrive;
        const placed = await writeConfigDrive(disk, decodeConfigDrive(raw));
        ctx.log(`config drive written to ${device} partition ${placed.partition} (${placed.table}, ${placed.created ? 'new' : 'existing'}, ${placed.size} bytes at ${placed.offset})`);
      }
      await disk.sync();
      return diskIdentifier(await disk.read(0, 512));
    });
  } catch (err) {
    if (err instanceof AgentRestError) throw err;
    throw configDriveError('configDriveFailed', { disk: device, reason: messageOf(err) });
  }
  state.partitionUuids = { 'root uuid': rootUuid };
  return `image (${info.id}) written to device ${device} root_uuid=${rootUuid}`;
}

/** Registers the standby commands. */
export function registerStandby(registry: CommandRegistry, ctx: ExtensionContext, state: StandbyState): void {
  registry.register('standby', 'prepare_image', {
    async: true,
    validate: (p) => validateImageInfo(p.image_info),
    // IPA prefixes string results of asynchronous commands with the command name.
    run: async (p) => ({ result: `prepare_image: ${await prepareImage(ctx, state, p as unknown as PrepareImageParams)}` }),
  });
  registry.register('standby', 'cache_image', {
    async: true,
    validate: (p) => validateImageInfo(p.image_info),
    run: async (p) => {
      const info = p.image_info as ImageInfo;
      if (state.cachedImageId === info.id && !p.force) return { result: `cache_image: image (${info.id}) already present on device` };
      if (p.force) state.cachedImageId = null;
      return { result: `cache_image: ${await prepareImage(ctx, state, { image_info: info, configdrive: (p.configdrive as string | null) ?? null })}` };
    },
  });
  const shutdown = (reason: 'power_off' | 'reboot') => async () => {
    await ctx.host.sync().catch((err: unknown) => ctx.log(`Failed to sync file system buffers: ${messageOf(err)}`));
    ctx.log(reason === 'power_off' ? 'Powering off system' : 'Rebooting system');
    await (reason === 'power_off' ? ctx.host.powerOff() : ctx.host.reboot());
    ctx.exit(reason);
    return null;
  };
  registry.register('standby', 'power_off', { async: true, run: shutdown('power_off') });
  registry.register('standby', 'run_image', { async: true, run: shutdown('reboot') });
  registry.register('standby', 'sync', {
    async: false,
    run: async () => {
      try {
        await ctx.host.sync();
      } catch (err) {
        throw toAgentError(err);
      }
      return null;
    },
  });
  registry.register('standby', 'get_partition_uuids', {
    async: false,
    run: () => {
      if (state.partitionUuids === null) ctx.log('No partition UUIDs recorded yet, prepare_image has to be called before get_partition_uuids');
      return state.partitionUuids ?? {};
    },
  });
}
