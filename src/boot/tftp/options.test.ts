import { describe, expect, it } from 'vitest';
import { negotiate } from './options.js';

const limits = { maxBlksize: 1468, maxWindowsize: 16 };

describe('TFTP option negotiation', () => {
  it('answers nothing (RFC 1350 transfer) when no option is asked for or understood', () => {
    expect(negotiate([], limits, 100)).toEqual({ blksize: 512, windowsize: 1, timeoutMs: undefined, oack: [] });
    expect(negotiate([['multicast', ''], ['rollover', '0']], limits, 100).oack).toEqual([]);
  });

  it('grants blksize up to the configured maximum and ignores values outside 8..65464', () => {
    expect(negotiate([['blksize', '1024']], limits, 0)).toMatchObject({ blksize: 1024, oack: [['blksize', '1024']] });
    expect(negotiate([['blksize', '65464']], limits, 0)).toMatchObject({ blksize: 1468, oack: [['blksize', '1468']] });
    expect(negotiate([['blksize', '8']], limits, 0)).toMatchObject({ blksize: 8 });
    for (const bad of ['7', '65465', '-1', '1e3', ' 512', 'abc', '']) {
      expect(negotiate([['blksize', bad]], limits, 0), bad).toMatchObject({ blksize: 512, oack: [] });
    }
  });

  it('answers tsize with the real size, and leaves it out when the size is unknown or 0 (curl refuses tsize 0)', () => {
    expect(negotiate([['tsize', '0']], limits, 123456).oack).toEqual([['tsize', '123456']]);
    expect(negotiate([['tsize', '0']], limits, 1).oack).toEqual([['tsize', '1']]);
    expect(negotiate([['tsize', '0']], limits, undefined).oack).toEqual([]);
    expect(negotiate([['tsize', '0'], ['blksize', '1024']], limits, 0).oack).toEqual([['blksize', '1024']]);
  });

  it('accepts timeout 1..255 s unchanged and ignores others', () => {
    expect(negotiate([['timeout', '3']], limits, 0)).toMatchObject({ timeoutMs: 3000, oack: [['timeout', '3']] });
    expect(negotiate([['timeout', '255']], limits, 0).timeoutMs).toBe(255_000);
    expect(negotiate([['timeout', '0']], limits, 0)).toMatchObject({ timeoutMs: undefined, oack: [] });
    expect(negotiate([['timeout', '256']], limits, 0).oack).toEqual([]);
  });

  it('clamps windowsize to the configured maximum and ignores values outside 1..65535', () => {
    expect(negotiate([['windowsize', '8']], limits, 0)).toMatchObject({ windowsize: 8, oack: [['windowsize', '8']] });
    expect(negotiate([['windowsize', '65535']], limits, 0)).toMatchObject({ windowsize: 16, oack: [['windowsize', '16']] });
    expect(negotiate([['windowsize', '0']], limits, 0)).toMatchObject({ windowsize: 1, oack: [] });
    expect(negotiate([['windowsize', '65536']], limits, 0).oack).toEqual([]);
  });

  it('bounds blksize × windowsize (the memory of one transfer)', () => {
    const big = { maxBlksize: 65464, maxWindowsize: 65535 };
    expect(negotiate([['windowsize', '65535'], ['blksize', '65464']], big, 0)).toMatchObject({ blksize: 65464, windowsize: 128, oack: [['windowsize', '128'], ['blksize', '65464']] });
    expect(negotiate([['blksize', '1468'], ['windowsize', '100']], { ...limits, maxWindowsize: 100, maxWindowBytes: 14680 }, 0).windowsize).toBe(10);
    expect(negotiate([['blksize', '65464'], ['windowsize', '4']], { ...big, maxWindowBytes: 1000 }, 0).windowsize).toBe(1);
  });

  it('keeps the client order, takes the first of repeated options and skips unknown ones', () => {
    const n = negotiate([['windowsize', '4'], ['x-vendor', '1'], ['tsize', '0'], ['blksize', '1400'], ['BLKSIZE', '600']], limits, 9);
    expect(n.oack).toEqual([['windowsize', '4'], ['tsize', '9'], ['blksize', '1400']]);
    expect(n.blksize).toBe(1400);
  });
});
