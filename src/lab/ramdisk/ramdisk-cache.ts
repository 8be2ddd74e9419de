/**
 * Keeping the ramdisk cache small: each entry (`<cacheDir>/<inputsHash>/`) holds a kernel and an
 * initramfs (~50 MB), and a new agent bundle makes a new entry.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/** Leftovers of builds that died are removed after this long. */
export const STALE_TMP_MS = 60 * 60 * 1000;

/**
 * Removes all but the `keep` most recently used ramdisks (never `current`) and temporary directories
 * of builds that died. Unpacked kernels stay.
 */
export async function pruneRamdiskCache(cacheDir: string, current: string, keep: number, log: (line: string) => void): Promise<void> {
  const names = await readdir(cacheDir).catch(() => [] as string[]);
  const used: { name: string; at: number }[] = [];
  for (const name of names) {
    const dir = path.join(cacheDir, name);
    if (/^[0-9a-f]{64}$/.test(name)) {
      if (name !== current) used.push({ name, at: (await stat(path.join(dir, 'manifest.json')).catch(() => stat(dir))).mtimeMs });
    } else if (/\.tmp-\d+-[0-9a-f]+$/.test(name) && Date.now() - (await stat(dir)).mtimeMs > STALE_TMP_MS) {
      await rm(dir, { recursive: true, force: true });
    }
  }
  used.sort((a, b) => b.at - a.at);
  for (const old of used.slice(Math.max(0, keep - 1))) {
    await rm(path.join(cacheDir, old.name), { recursive: true, force: true });
    log(`ramdisk cache: removed ${old.name} (keeping the ${keep} most recently used)`);
  }
}

