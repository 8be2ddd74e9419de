/**
 * Files the network boot interfaces put under a boot root (the TFTP or HTTP root): per-node kernels and
 * ramdisks in `<root>/<node uuid>/<label>` (Ironic's layout), linked from the image cache, and per-MAC
 * configs. Writes are atomic (temporary file, then rename) so a loader never reads half a file.
 */
import { randomBytes } from 'node:crypto';
import { copyFile, link, mkdir, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Node } from '../../domain/node.js';
import { fail, messageOf } from '../../shared/errors.js';
import type { BootImagePair } from './boot-info.js';
import type { BootImages } from './environment.js';

/** The image cache key of one per-node boot image (`<uuid>.<label>`). */
export function imageKey(node: Pick<Node, 'uuid'>, label: string): string {
  return `${node.uuid}.${label}`;
}

/** `<root>/<uuid>/<label>`. */
export function nodeFile(root: string, node: Pick<Node, 'uuid'>, label: string): string {
  return path.join(root, node.uuid, label);
}

/**
 * Puts the kernel and ramdisk of `pair` at `<root>/<uuid>/<label>`: a hard link to the cached master
 * (a copy when the root is on another file system). Returns the labels written.
 */
export async function placeImages(root: string, node: Pick<Node, 'uuid'>, pair: BootImagePair, images: BootImages, signal: AbortSignal): Promise<void> {
  await mkdir(path.join(root, node.uuid), { recursive: true });
  for (const image of [pair.kernel, pair.ramdisk]) {
    let cached: { path: string };
    try {
      // NOTE: kernels and ramdisks are never converted (a ramdisk is not a disk image).
      cached = await images.linkForNode(imageKey(node, image.label), { url: image.url, forceRaw: false, signal });
    } catch (err) {
      throw fail('bootImageFetchFailed', { image: image.label, node: node.uuid, url: image.url, reason: messageOf(err) }, { cause: err });
    }
    await placeFile(cached.path, nodeFile(root, node, image.label));
  }
}

/** Removes `<root>/<uuid>/<label>` of the given labels, the node directory when empty, and the cache links. */
export async function removeImages(root: string, node: Pick<Node, 'uuid'>, labels: readonly string[], images: BootImages | null): Promise<void> {
  for (const label of labels) {
    await rm(nodeFile(root, node, label), { force: true });
    if (images) await images.releaseNode(imageKey(node, label));
  }
  await rmdir(path.join(root, node.uuid)).catch(() => undefined);
}

/** Writes `content` to `file` atomically, creating its directory. */
export async function writeAtomic(file: string, content: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, content, { mode: 0o644 });
    await rename(tmp, file);
  } finally {
    await rm(tmp, { force: true });
  }
}

/** Hard-links `src` to `dest` (atomically replacing it), copying when they are on different file systems. */
export async function placeFile(src: string, dest: string): Promise<void> {
  const [s, d] = await Promise.all([stat(src), stat(dest).catch(() => undefined)]);
  if (d && d.ino === s.ino && d.dev === s.dev) return;
  const tmp = `${dest}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    try {
      await link(src, tmp);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      await copyFile(src, tmp);
    }
    await rename(tmp, dest);
  } finally {
    await rm(tmp, { force: true });
  }
}
