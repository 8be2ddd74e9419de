/** Whole-file replacement that a watching reader (dnsmasq's inotify) never sees half-written. */
import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes `text` to `file` through a temporary file in the same directory and a rename, so the file
 * holds the old or the new text, never a mix or nothing.
 * NOTE: the temporary name starts with "." because dnsmasq's inotify handler skips dot files (and
 * "~" backups) in dhcp-hostsdir/optsdir; it reads the file once, when the rename lands (IN_MOVED_TO).
 * Mode 0644: an operator-run dnsmasq reads the files after dropping to user nobody.
 */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(tmp, 'wx', 0o644);
  try {
    try {
      await handle.chmod(0o644);
      await handle.writeFile(text);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}

/** True for the temporary files {@link writeFileAtomic} leaves only while it runs. */
export function isTemporaryName(name: string): boolean {
  return name.startsWith('.') && name.endsWith('.tmp');
}
