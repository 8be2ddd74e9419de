import { watch } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isTemporaryName, writeFileAtomic } from './atomic-write.js';

describe('writeFileAtomic', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ingot-atomic-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('replaces the whole file and leaves no temporary file, readable by others', async () => {
    const file = path.join(dir, 'ingot-52-54-00-12-34-56.conf');
    await writeFile(file, 'old\n');
    await writeFileAtomic(file, 'new\n');
    expect(await readFile(file, 'utf8')).toBe('new\n');
    expect(await readdir(dir)).toEqual(['ingot-52-54-00-12-34-56.conf']);
    expect((await stat(file)).mode & 0o777).toBe(0o644);
  });

  it('never shows a reader a partial file while writers race', async () => {
    const file = path.join(dir, 'f.conf');
    const texts = ['a', 'b', 'c', 'd'].map((c) => `${c.repeat(256 * 1024)}\n`);
    await writeFileAtomic(file, texts[0]!);
    let writing = true;
    const seen = new Set<string>();
    const reader = (async () => {
      while (writing) seen.add(await readFile(file, 'utf8'));
    })();
    await Promise.all(Array.from({ length: 40 }, (_, i) => writeFileAtomic(file, texts[i % texts.length]!)));
    writing = false;
    await reader;
    for (const text of seen) expect(texts).toContain(text);
    expect((await readdir(dir)).filter(isTemporaryName)).toEqual([]);
  });

  it('names its temporary files with a leading dot, which dnsmasq skips', async () => {
    const file = path.join(dir, 'x.conf');
    const names: string[] = [];
    const watcher = watch(dir, (_event, name) => name && names.push(name));
    try {
      await writeFileAtomic(file, 'x\n');
      // The rename onto x.conf is the write's last step: its event comes after the temporary file's.
      await vi.waitUntil(() => names.includes('x.conf'), { timeout: 5000 });
    } finally {
      watcher.close();
    }
    const temps = names.filter((n) => n !== 'x.conf');
    expect(temps.length).toBeGreaterThan(0);
    for (const name of temps) expect(name.startsWith('.') && isTemporaryName(name)).toBe(true);
  });

  it('keeps the old file and removes its temporary file when the write fails', async () => {
    const file = path.join(dir, 'sub', 'x.conf');
    await expect(writeFileAtomic(file, 'x')).rejects.toMatchObject({ code: 'ENOENT' });
    const target = path.join(dir, 'isdir');
    await mkdir(target);
    await writeFile(path.join(target, 'keep'), 'k');
    await expect(writeFileAtomic(target, 'x')).rejects.toBeTruthy();
    expect((await readdir(dir)).filter(isTemporaryName)).toEqual([]);
  });
});
