/**
 * Filling a ramdisk's root directory from the host: programs with the shared libraries `ldd` names for
 * them (and the dynamic loader), busybox with a symlink per applet, and files written with an exact
 * mode (the builder's umask must not leak into the archive).
 */
import { chmod, copyFile, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fail } from '../../shared/errors.js';
import { runTool } from './build-tools.js';

/**
 * The files `ldd` says a program loads: libraries (`name => /path (addr)`) and the dynamic loader
 * (`/lib64/ld-linux-x86-64.so.2 (addr)`), in the order printed; the vDSO has no file and is left
 * out. Empty for a static program. Throws DriverOperationError for a library ldd did not find.
 */
export function parseLdd(text: string): string[] {
  if (/not a dynamic executable|statically linked/.test(text)) return [];
  const files: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    const arrow = /^(\S+)\s+=>\s+(.*)$/.exec(line);
    if (arrow) {
      if (/^not found/.test(arrow[2]!)) throw fail('lddLibraryNotFound', { library: arrow[1]! });
      const file = /^(\/\S+)/.exec(arrow[2]!)?.[1];
      if (file) files.push(file);
    } else if (line.startsWith('/')) {
      files.push(line.split(/\s+/)[0]!);
    }
  }
  return files;
}

/** The host files a program needs: itself first, then what `ldd` lists (nothing more for a static one). */
export async function programClosure(program: string, ldd: string, signal?: AbortSignal): Promise<string[]> {
  let text: string;
  try {
    text = (await runTool(ldd, [program], { signal, timeoutMs: 30_000 })).stdout;
  } catch (err) {
    // ldd exits 1 for a static program ("not a dynamic executable"), which is fine.
    const message = (err as Error).message;
    if (!/not a dynamic executable|statically linked/.test(message)) throw err;
    text = message;
  }
  return [program, ...parseLdd(text)];
}

/** Creates `rel` (and its parents) under `root`, each with mode 0755. */
export async function makeDir(root: string, rel: string): Promise<void> {
  const parts = rel.split('/').filter(Boolean);
  let at = root;
  for (const part of parts) {
    at = path.join(at, part);
    await mkdir(at, { recursive: true });
    await chmod(at, 0o755);
  }
}

/** Writes `content` to `rel` under `root` with exactly `mode`. */
export async function writeRootFile(root: string, rel: string, content: string | Buffer, mode: number): Promise<void> {
  await makeDir(root, path.posix.dirname(rel));
  const file = path.join(root, rel);
  await rm(file, { force: true });
  await writeFile(file, content);
  await chmod(file, mode);
}

/**
 * Copies host files into `root` at the same absolute paths (`/usr/bin/node` → `root/usr/bin/node`),
 * following symlinks on the host side (so `/lib/…` on a merged-/usr host becomes a real file under
 * `lib/`), with mode 0755 for executables and 0644 for the rest. `rename` maps a host path to another
 * path in the ramdisk.
 */
export async function copyHostFiles(root: string, files: readonly string[], rename: Record<string, string> = {}): Promise<void> {
  for (const file of new Set(files)) {
    const dest = rename[file] ?? file;
    await makeDir(root, path.posix.dirname(dest));
    const target = path.join(root, dest);
    // Never copy through an existing symlink (a busybox applet link would overwrite busybox itself).
    await rm(target, { force: true });
    await copyFile(file, target);
    const executable = /\/(s?bin)\//.test(dest) || /ld-linux/.test(dest);
    await chmod(target, executable ? 0o755 : 0o644);
  }
}

/**
 * Installs busybox (with its libraries, if the host's is not the static build) as `/bin/busybox` and a
 * symlink to it for every applet `busybox --list-full` names, except where `root` has a file already.
 * Returns the number of applets linked.
 */
export async function installBusybox(root: string, busybox: string, ldd: string, signal?: AbortSignal): Promise<number> {
  const [self, ...libs] = await programClosure(busybox, ldd, signal);
  await copyHostFiles(root, [self!, ...libs], { [self!]: '/bin/busybox' });
  const { stdout } = await runTool(busybox, ['--list-full'], { signal, timeoutMs: 30_000 });
  let linked = 0;
  for (const applet of stdout.split('\n').map((l) => l.trim()).sort()) {
    // Entries without a directory (linuxrc) are not commands.
    if (!applet.includes('/') || applet === 'bin/busybox') continue;
    await makeDir(root, path.posix.dirname(applet));
    try {
      await symlink('/bin/busybox', path.join(root, applet));
      linked++;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return linked;
}
