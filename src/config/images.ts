import { Type, type Static } from 'typebox';

/**
 * Image handling: the master image cache, downloads, checksums and config drives. Defaults follow
 * Ironic (`[pxe]image_cache_size` 20480 MiB, `[pxe]image_cache_ttl` 10080 min,
 * `[conductor]file_url_allowed_paths`, the agent's 64 MiB config drive limit), except that MD5
 * checksums are refused unless `allow_md5_checksum` is set.
 */
export const ImagesConfig = Type.Object({
  cache_dir: Type.String({
    default: '',
    description: 'Master image cache directory (with instance/<node>/disk hard links beside it); empty means master_images inside database.data_dir.',
  }),
  master_cache_size_mib: Type.Integer({
    default: 20480,
    minimum: 0,
    description: 'Disk space the cached master images may use, in MiB, counting those in use; the oldest unused ones are evicted above it, and one image larger than it is refused before it is downloaded (as is one larger than the free space left after evicting unused images). 0: every unused image is evicted, and no download is refused for its size.',
  }),
  master_cache_ttl_s: Type.Number({
    default: 7 * 24 * 3600,
    minimum: 0,
    description: 'A cached master image unused for longer than this is evicted (Ironic image_cache_ttl, 7 days).',
  }),
  allow_md5_checksum: Type.Boolean({
    default: false,
    description: 'Accept MD5 image checksums (Ironic [agent]allow_md5_checksum). Off: only sha256 and sha512 are accepted.',
  }),
  download_timeout_s: Type.Number({
    default: 60,
    exclusiveMinimum: 0,
    description: 'Longest wait for an image server to answer, and for the next bytes of a download once it has started.',
  }),
  max_image_size_mib: Type.Integer({
    default: 0,
    minimum: 0,
    description: 'Largest image that may be downloaded, in MiB (0: no limit besides the free disk space).',
  }),
  download_concurrency: Type.Integer({
    default: 20,
    minimum: 1,
    description: 'Image downloads that may run at once (Ironic image_download_concurrency).',
  }),
  file_url_allowed_paths: Type.Array(Type.String({ pattern: '^/' }), {
    default: ['/var/lib/ingot', '/srv/images'],
    description: 'Directories file:// image URLs may point into (absolute paths); empty disables file:// images. /dev, /sys, /proc, /boot, /etc and /run are always refused.',
  }),
  force_raw_images: Type.Boolean({
    default: true,
    description: 'Convert qcow2 images to raw (qemu-img) when they enter the cache, so they can be streamed to disk as they are.',
  }),
  download_source: Type.Union([Type.Literal('http'), Type.Literal('local')], {
    default: 'http',
    description: 'How the agent gets an http(s) raw image: `http` from its URL directly, `local` from the conductor\'s cache through the HTTP boot server (file:// and non-raw images always go through the cache; Ironic `[agent]image_download_source`).',
  }),
  max_configdrive_size_mib: Type.Integer({
    default: 64,
    minimum: 1,
    description: 'Largest config drive image accepted, in MiB, after decompression (the agent writes at most 64 MiB).',
  }),
});
export type ImagesConfig = Static<typeof ImagesConfig>;
