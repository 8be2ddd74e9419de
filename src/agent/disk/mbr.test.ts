import { describe, it, expect } from 'vitest';
import { MBR_MAX_SECTORS, chs, diskIdentifier, parseMbr, planMbrPartition, withMbrEntry } from './mbr.js';

describe('MBR', () => {
  it('computes CHS in the 255/63 geometry and saturates beyond 1023 cylinders', () => {
    expect(chs(0)).toEqual([0, 1, 0]);
    expect(chs(2048)).toEqual([32, 33, 0]);
    expect(chs(5_000_000_000)).toEqual([0xfe, 0xff, 0xff]);
  });

  it('plans a new partition at the aligned end, in the first free slot, and refuses a full table', () => {
    let s0 = withMbrEntry(Buffer.alloc(512), { slot: 0, bootable: true, type: 0x83, startLba: 2048, sectors: 20480 });
    s0.writeUInt32LE(0xdeadbeef, 440);
    const mbr = parseMbr(s0)!;
    expect(diskIdentifier(s0)).toBe('0xdeadbeef');
    expect(mbr.entries).toEqual([{ slot: 0, bootable: true, type: 0x83, startLba: 2048, sectors: 20480 }]);
    expect(planMbrPartition(mbr, 100_000, 2048, 2048, 0x83)).toEqual({ slot: 1, bootable: false, type: 0x83, startLba: 96256, sectors: 2048 });
    // A disk over 2 TiB: the partition ends where an MBR can still address it.
    expect(planMbrPartition(mbr, MBR_MAX_SECTORS * 2, 2048, 2048, 0x83).startLba).toBe(MBR_MAX_SECTORS - 2048);
    for (const slot of [1, 2, 3]) s0 = withMbrEntry(s0, { slot, bootable: false, type: 0x83, startLba: 30000 * slot, sectors: 100 });
    expect(() => planMbrPartition(parseMbr(s0)!, 1_000_000, 2048, 2048, 0x83)).toThrow(/already has 4 primary partitions/);
  });

  it('needs the boot signature', () => {
    expect(parseMbr(Buffer.alloc(512))).toBeNull();
  });
});
