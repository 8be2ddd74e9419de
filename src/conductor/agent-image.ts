/**
 * What `standby.prepare_image` gets: the image (`image_info`) and the config drive. An http(s) raw image
 * is handed to the agent by its URL and checksum (`images.download_source = http`, Ironic's default);
 * file:// images, images in another format (converted to raw by the cache with `qemu-img`) and every
 * image with `download_source = local` come from the conductor's image cache through the HTTP boot
 * server, at `<http_url>/<node uuid>/<random>/instance.raw` with the checksum of the bytes served: the
 * HTTP boot server answers anyone who can reach it, so the path carries 128 random bits, new at every
 * `prepare_image`, and only the agent is told it (the node history names the source). A config drive
 * given as JSON is rendered into a config-2 ISO here; `meta_data` gets the node's UUID, name and
 * hostname when it lacks them.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { JsonObject, Node } from '../domain/node.js';
import type { AgentImage } from '../drivers/agent/services.js';
import { placeFile, removeImages } from '../drivers/network-boot/node-files.js';
import {
  hashFile, isHttpUrl, MAX_CONFIG_DRIVE_BYTES, parseChecksum, storedConfigDrive, type ConfigDriveContents,
} from '../images/index.js';
import type { ImageInfo } from '../protocol/agent/commands.js';
import { fail, messageOf } from '../shared/errors.js';
import type { ConductorContext } from './context.js';

/** The label of the served instance image under `<http root>/<node uuid>/<random>/`. */
export const SERVED_IMAGE_LABEL = 'instance.raw';

/** The random directory of a served image: 128 bits from the CSPRNG, in hex. */
const SERVED_DIR = /^[0-9a-f]{32}$/;

/** Removes the node's served image directories (`<root>/<uuid>/<random>/`). */
async function removeServedImages(root: string, node: Pick<Node, 'uuid'>): Promise<void> {
  const dir = path.join(root, node.uuid);
  const entries = await readdir(dir).catch(() => [] as string[]);
  for (const name of entries.filter((e) => SERVED_DIR.test(e))) await rm(path.join(dir, name), { recursive: true, force: true });
}

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** sha256 of served files, by device, inode, size and time: a master is hashed once (the newest few kept). */
const digests = new Map<string, Promise<string>>();
const MAX_DIGESTS = 64;

async function servedDigest(file: string, signal: AbortSignal): Promise<string> {
  const s = await stat(file);
  const key = `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}`;
  let digest = digests.get(key);
  if (!digest) {
    digest = hashFile(file, 'sha256', signal);
    digests.set(key, digest);
    digest.catch(() => digests.delete(key));
    if (digests.size > MAX_DIGESTS) digests.delete(digests.keys().next().value as string);
  }
  return digest;
}

/** The image's checksum from instance_info: `{algo, value}` with value a digest or a checksum file URL. */
function instanceChecksum(ctx: ConductorContext, node: Readonly<Node>): { algo?: string; value: string } | null {
  const info = node.instance_info;
  const value = text(info.image_os_hash_value) || text(info.image_checksum);
  if (!value) return null;
  const algo = text(info.image_os_hash_value) ? text(info.image_os_hash_algo) || undefined : undefined;
  if (isHttpUrl(value)) return { ...(algo ? { algo } : {}), value };
  const parsed = parseChecksum(value, { allowMd5: ctx.images.allow_md5_checksum }, algo);
  return { algo: parsed.algo, value: parsed.hex };
}

/** Builds the image and config drive for the node's agent; file work (cache, conversion, hashing) happens here. */
export async function agentImageFor(ctx: ConductorContext, node: Readonly<Node>, signal: AbortSignal): Promise<AgentImage> {
  const info = node.instance_info;
  const source = text(info.image_source);
  if (!source) throw fail('imageSourceMissing', { node: node.uuid });
  const checksum = instanceChecksum(ctx, node);
  const diskFormat = text(info.image_disk_format) || null;
  const direct = isHttpUrl(source) && (diskFormat === null || diskFormat === 'raw') && ctx.images.download_source === 'http';
  const base: ImageInfo = {
    id: text(info.image_name) || path.posix.basename(new URL(source).pathname) || source,
    urls: [source],
    disk_format: 'raw',
    container_format: 'bare',
    image_type: 'whole-disk',
    stream_raw_images: true,
    node_uuid: node.uuid,
  };
  const configdrive = await configDriveFor(ctx, node, signal);
  if (direct) {
    return { image_info: { ...base, os_hash_algo: checksum?.algo ?? null, os_hash_value: checksum?.value ?? null }, configdrive, served: false };
  }
  const env = ctx.boot;
  if (!env || !env.config.http_url) {
    throw fail('imageNeedsHttpServer', { source, node: node.uuid, format: diskFormat ?? 'non-raw' });
  }
  let cached: { path: string };
  try {
    const request = checksum ? { checksum: checksum.algo && !isHttpUrl(checksum.value) ? `${checksum.algo}:${checksum.value}` : checksum.value } : {};
    cached = await env.images.linkForNode(`${node.uuid}.instance`, { url: source, forceRaw: true, signal, ...request });
  } catch (err) {
    throw fail('imagePrepareFailed', { source, node: node.uuid, reason: messageOf(err) }, { cause: err });
  }
  await removeServedImages(env.config.http_root_dir, node);
  const secret = randomBytes(16).toString('hex');
  const served = path.join(env.config.http_root_dir, node.uuid, secret, SERVED_IMAGE_LABEL);
  await mkdir(path.dirname(served), { recursive: true });
  await placeFile(cached.path, served);
  const url = `${env.config.http_url.replace(/\/+$/, '')}/${node.uuid}/${secret}/${SERVED_IMAGE_LABEL}`;
  const digest = await servedDigest(served, signal);
  return { image_info: { ...base, urls: [url], os_hash_algo: 'sha256', os_hash_value: digest }, configdrive, served: true };
}

/** Removes the served image of the node and its cache link (undeploy, failed deploy). */
export async function releaseAgentImage(ctx: ConductorContext, node: Readonly<Node>): Promise<void> {
  const env = ctx.boot;
  if (!env) return;
  await removeServedImages(env.config.http_root_dir, node);
  await removeImages(env.config.http_root_dir, node, [], null);
  await env.images.releaseNode(`${node.uuid}.instance`);
}

/**
 * Checks a config drive given with a deploy request before anything changes (InvalidParameterValue, 400):
 * a gzip+base64 value is inflated and a JSON one rendered, and either must fit the agent's 64 MiB
 * (`images.max_configdrive_size_mib` when smaller). A URL is fetched only when the image is prepared.
 */
export async function checkConfigDrive(ctx: ConductorContext, node: Readonly<Node>, value: unknown, signal?: AbortSignal): Promise<void> {
  if (value === undefined || value === null || (typeof value === 'string' && isHttpUrl(value))) return;
  await configDriveOf(ctx, node, value, signal ?? new AbortController().signal);
}

/** The config drive for the agent: URLs and gzip+base64 as given, JSON rendered (with the node's metadata filled in). */
function configDriveFor(ctx: ConductorContext, node: Readonly<Node>, signal: AbortSignal): Promise<string | null> {
  return configDriveOf(ctx, node, node.instance_info.configdrive, signal);
}

async function configDriveOf(ctx: ConductorContext, node: Readonly<Node>, value: unknown, signal: AbortSignal): Promise<string | null> {
  if (value === undefined || value === null || value === '') return null;
  let input: unknown = value;
  if (typeof value === 'object' && !Array.isArray(value)) {
    const contents = value as JsonObject;
    const meta = (contents.meta_data && typeof contents.meta_data === 'object' && !Array.isArray(contents.meta_data) ? contents.meta_data : {}) as JsonObject;
    const name = node.name ?? node.uuid;
    input = { ...contents, meta_data: { uuid: node.uuid, name, hostname: name, ...meta } } as ConfigDriveContents;
  }
  try {
    return await storedConfigDrive(input, { node: { uuid: node.uuid, name: node.name }, signal, maxBytes: Math.min(MAX_CONFIG_DRIVE_BYTES, ctx.images.max_configdrive_size_mib * 1024 * 1024) });
  } catch (err) {
    throw fail('configDriveUnusable', { node: node.uuid, reason: messageOf(err) }, { cause: err });
  }
}
