import { crc32 } from 'node:zlib';
import { describe, it, expect } from 'vitest';
import type { DiskTarget } from './disk-target.js';
import { LINUX_FS_GUID, addGptPartition, backupMisplaced, buildGptHeader, bytesToGuid, guidToBytes, parseGptHeader, readGpt, relocateBackup, writeGpt, type GptHeader } from './gpt.js';

/** A disk in memory. */
function memDisk(size: number): DiskTarget & { bytes: Buffer } {
  const bytes = Buffer.alloc(size);
  return {
    bytes, path: 'mem', size, sectorSize: 512, isFile: true,
    read: async (o, l) => Buffer.from(bytes.subarray(o, o + l)),
    write: async (o, d) => void bytes.set(d, o),
    writeDirect: async (o, d) => (bytes.set(d, o), d.length),
    zero: async (o, l) => void bytes.fill(0, o, o + l),
    blank: async () => void bytes.fill(0),
    sync: async () => {}, close: async () => {},
  };
}

const HEADER: GptHeader = { revision: 0x10000, headerSize: 92, myLba: 1, alternateLba: 2047, firstUsableLba: 34, lastUsableLba: 2014, diskGuid: '12345678-9abc-4def-8123-456789abcdef', entriesLba: 2, entryCount: 128, entrySize: 128 };

describe('GPT', () => {
  it('stores GUIDs mixed-endian, as UEFI does', () => {
    expect(guidToBytes(LINUX_FS_GUID).toString('hex')).toBe('af3dc60f838472478e793d69d8477de4');
    expect(bytesToGuid(guidToBytes(LINUX_FS_GUID))).toBe(LINUX_FS_GUID);
  });

  it('writes headers whose CRC32 covers the header with its CRC field zeroed, and rejects a changed byte', () => {
    const array = Buffer.alloc(128 * 128);
    const s = buildGptHeader(HEADER, crc32(array), 512);
    const copy = Buffer.from(s.subarray(0, 92));
    copy.writeUInt32LE(0, 16);
    expect(s.readUInt32LE(16)).toBe(crc32(copy));
    expect(parseGptHeader(s)).toEqual(HEADER);
    s.writeUInt8((s[60] as number) ^ 1, 60);
    expect(parseGptHeader(s)).toBeNull();
  });

  it('moves the backup of a small image to the end of a larger disk and adds an aligned partition there', async () => {
    const disk = memDisk(8 * 1024 * 1024); // 16384 sectors; the "image" table ends at 2047
    await writeGpt(disk, { header: HEADER, entries: [], array: Buffer.alloc(128 * 128), sectorSize: 512 });
    disk.bytes[446 + 4] = 0xee;
    let gpt = (await readGpt(disk))!;
    expect(gpt).not.toBeNull();
    expect(backupMisplaced(gpt, 16384)).toBe(true);
    gpt = relocateBackup(gpt, 16384);
    expect(gpt.header).toMatchObject({ alternateLba: 16383, lastUsableLba: 16383 - 32 - 1 });
    const { gpt: withPart, entry } = addGptPartition(gpt, 2048, 2048, LINUX_FS_GUID, '00000000-0000-4000-8000-000000000001', 'config-2');
    expect(entry).toMatchObject({ index: 0, firstLba: 12288, lastLba: 14335, name: 'config-2' });
    await writeGpt(disk, withPart);
    const back = (await readGpt(disk))!;
    expect(back.entries).toEqual([expect.objectContaining({ firstLba: 12288, lastLba: 14335, typeGuid: LINUX_FS_GUID, name: 'config-2' })]);
    const backup = parseGptHeader(disk.bytes.subarray(16383 * 512, 16384 * 512))!;
    expect(backup).toMatchObject({ myLba: 16383, alternateLba: 1, entriesLba: 16383 - 32 });
    expect(disk.bytes.readUInt32LE(446 + 12)).toBe(16383);
    expect(() => addGptPartition(back, 8192, 2048, LINUX_FS_GUID, '00000000-0000-4000-8000-000000000002', 'x')).toThrow(/no room/);
  });
});
