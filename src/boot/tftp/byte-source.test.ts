import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { netasciiSource, readerSource, streamSource, toNetascii, type ByteSource } from './byte-source.js';
import { bufferFile, type TftpReader } from './files.js';

/** Reads a source to its end in pieces of the given sizes (cycled). */
async function drain(source: ByteSource, sizes: number[]): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (let i = 0; ; i++) {
    const want = sizes[i % sizes.length] as number;
    const buf = Buffer.alloc(want);
    const n = await source.read(buf, 0, want);
    parts.push(buf.subarray(0, n));
    if (n < want) break;
  }
  await source.close();
  return Buffer.concat(parts);
}

describe('byte sources', () => {
  const data = randomBytes(200_000);

  it('reads a positional reader in order through the read-ahead, for small and large pieces', async () => {
    let reads = 0;
    const inner = (await bufferFile(data).open()) as TftpReader;
    const counting: TftpReader = { read: (...a) => (reads++, inner.read(...a)) };
    expect((await drain(readerSource(counting, 4096), [512, 1468, 7, 10_000])).equals(data)).toBe(true);
    // 200 000 bytes through a 4 KiB read-ahead, the 10 000-byte pieces read directly: far fewer reads than pieces.
    expect(reads).toBeLessThan(100);
  });

  it('fills every piece fully until the end (a short piece means the end)', async () => {
    const src = readerSource((await bufferFile(data.subarray(0, 1024)).open()) as TftpReader);
    const buf = Buffer.alloc(512);
    expect(await src.read(buf, 0, 512)).toBe(512);
    expect(await src.read(buf, 0, 512)).toBe(512);
    expect(await src.read(buf, 0, 512)).toBe(0);
  });

  it('pulls a stream with backpressure and sees its end', async () => {
    let produced = 0;
    const stream = new Readable({
      highWaterMark: 8192,
      read() {
        if (produced >= data.length) return this.push(null);
        const chunk = data.subarray(produced, produced + 3000);
        produced += chunk.length;
        this.push(chunk);
      },
    });
    const src = streamSource(stream);
    const first = Buffer.alloc(100);
    expect(await src.read(first, 0, 100)).toBe(100);
    await new Promise((r) => setTimeout(r, 20));
    // Only about a highWaterMark ahead of what was consumed, not the whole content.
    expect(produced).toBeLessThan(20_000);
    const rest = await drain(src, [1468]);
    expect(Buffer.concat([first, rest]).equals(data)).toBe(true);
  });

  it('reports a stream error to the reader', async () => {
    const stream = new Readable({ read() {} });
    const src = streamSource(stream);
    setTimeout(() => stream.destroy(new Error('disk on fire')), 5);
    await expect(src.read(Buffer.alloc(10), 0, 10)).rejects.toThrow('disk on fire');
  });
});

describe('netascii', () => {
  it('turns LF into CR LF and a bare CR into CR NUL', () => {
    expect(toNetascii(Buffer.from('a\nb\rc\r\nd')).toString('latin1')).toBe('a\r\nb\r\0c\r\0\r\nd');
    const plain = Buffer.from('no line ends');
    expect(toNetascii(plain)).toBe(plain);
  });

  it('converts a whole source across chunk boundaries', async () => {
    const text = Buffer.from('line one\nline two\r\n\r'.repeat(5000));
    const src = netasciiSource(readerSource((await bufferFile(text).open()) as TftpReader), 1000);
    expect((await drain(src, [512])).equals(toNetascii(text))).toBe(true);
  });
});
