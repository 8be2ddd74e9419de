/** The agent's log archive as the conductor keeps it: text files masked, the tar still readable by tar(1). */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { ustar } from '../../src/agent/collectors/tar.js';
import { maskText } from '../../src/shared/mask.js';
import { maskLogArchive } from '../../src/drivers/agent/log-archive.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('maskLogArchive', () => {
  it('masks the text files of the agent\'s archive; tar reads the result', async () => {
    const log = `${'x'.repeat(700)}\ndownloading http://img:pw-1234@10.0.0.1/i.raw\nipmitool password=hunter22 ok\n`;
    const binary = Buffer.from([0, 1, 2, 0xff, 0x70, 0x61, 0x73, 0x73]);
    const gz = gzipSync(ustar([
      { name: 'journal', data: Buffer.from(log), mtime: 1_700_000_000 },
      { name: 'var/log/dmesg.bin', data: binary, mode: 0o600 },
      { name: 'plain', data: Buffer.from('nothing to hide\n') },
    ]));
    const out = maskLogArchive(gz, (t) => maskText(t));
    const dir = await mkdtemp(path.join(tmpdir(), 'ingot-log-archive-'));
    dirs.push(dir);
    await writeFile(path.join(dir, 'logs.tar.gz'), out);
    expect(execFileSync('tar', ['-tvzf', 'logs.tar.gz'], { cwd: dir, encoding: 'utf8' })).toMatch(/-rw------- .*var\/log\/dmesg\.bin/);
    execFileSync('tar', ['-xzf', 'logs.tar.gz'], { cwd: dir });
    const journal = await readFile(path.join(dir, 'journal'), 'utf8');
    expect(journal).toBe(`${'x'.repeat(700)}\ndownloading http://img:******@10.0.0.1/i.raw\nipmitool password=****** ok\n`);
    expect(await readFile(path.join(dir, 'var/log/dmesg.bin'))).toEqual(binary);
    expect(await readFile(path.join(dir, 'plain'), 'utf8')).toBe('nothing to hide\n');
  });

  it('refuses an archive it cannot read whole', () => {
    const tar = () => ustar([{ name: 'journal', data: Buffer.from('password=x\n') }]);
    const broken = tar();
    broken[CHECKSUM_BYTE] = (broken[CHECKSUM_BYTE] as number) ^ 1;
    expect(() => maskLogArchive(gzipSync(broken), maskText)).toThrow(/checksum/);
    expect(() => maskLogArchive(gzipSync(tar().subarray(0, 512)), maskText)).toThrow(/past the end/);
    expect(() => maskLogArchive(gzipSync(tar().subarray(0, 1024)), maskText)).toThrow(/no end/);
  });
});

/** A byte of the first header's checksum field. */
const CHECKSUM_BYTE = 149;
