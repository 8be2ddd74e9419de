import { describe, expect, it } from 'vitest';
import { writeIso9660 } from './iso9660.js';

const SECTOR = 2048;
const date = new Date(Date.UTC(2024, 4, 6, 7, 8, 9));

/** Minimal reading of the structures the writer is responsible for, straight from the bytes. */
function descriptor(img: Buffer, sector: number) {
  const o = sector * SECTOR;
  const root = o + 156;
  return {
    type: img[o],
    magic: img.subarray(o + 1, o + 6).toString('latin1'),
    volumeSize: img.readUInt32LE(o + 80),
    volumeSizeBE: img.readUInt32BE(o + 84),
    escape: img.subarray(o + 88, o + 91).toString('latin1'),
    blockSize: img.readUInt16LE(o + 128),
    rootExtent: img.readUInt32LE(root + 2),
    rootSize: img.readUInt32LE(root + 10),
  };
}

interface Rec {
  id: Buffer;
  extent: number;
  size: number;
  dir: boolean;
  su: Buffer;
}

function records(img: Buffer, extent: number, size: number): Rec[] {
  const out: Rec[] = [];
  for (let s = 0; s < size / SECTOR; s++) {
    let off = (extent + s) * SECTOR;
    const end = off + SECTOR;
    while (off < end && img[off] !== 0) {
      const len = img[off] as number;
      const idLen = img[off + 32] as number;
      const suStart = off + 33 + idLen + (idLen % 2 === 0 ? 1 : 0);
      out.push({
        id: img.subarray(off + 33, off + 33 + idLen),
        extent: img.readUInt32LE(off + 2),
        size: img.readUInt32LE(off + 10),
        dir: ((img[off + 25] as number) & 2) !== 0,
        su: img.subarray(suStart, off + len),
      });
      off += len;
    }
  }
  return out;
}

function susp(su: Buffer): Map<string, Buffer> {
  const m = new Map<string, Buffer>();
  for (let i = 0; i + 4 <= su.length && su[i + 2]; i += su[i + 2] as number) {
    m.set(su.subarray(i, i + 2).toString('latin1'), su.subarray(i, i + (su[i + 2] as number)));
  }
  return m;
}

describe('writeIso9660', () => {
  const img = writeIso9660({
    volumeId: 'config-2',
    date,
    files: [
      { path: 'openstack/latest/meta_data.json', data: Buffer.from('{"uuid":"u"}') },
      { path: 'openstack/latest/user_data', data: Buffer.from('#cloud-config\n') },
    ],
  });

  it('writes the primary and Joliet descriptors and the terminator, sized to the image', () => {
    expect(img.length % SECTOR).toBe(0);
    const pvd = descriptor(img, 16);
    const svd = descriptor(img, 17);
    expect(pvd).toMatchObject({ type: 1, magic: 'CD001', volumeSize: img.length / SECTOR, volumeSizeBE: img.length / SECTOR, blockSize: 2048 });
    expect(img.subarray(16 * SECTOR + 40, 16 * SECTOR + 48).toString('latin1')).toBe('config-2');
    expect(svd).toMatchObject({ type: 2, magic: 'CD001', escape: '%/E', volumeSize: img.length / SECTOR });
    expect(Buffer.from(img.subarray(17 * SECTOR + 40, 17 * SECTOR + 56)).swap16().toString('utf16le')).toBe('config-2');
    expect(img[18 * SECTOR]).toBe(255);
    expect(img.subarray(18 * SECTOR + 1, 18 * SECTOR + 6).toString('latin1')).toBe('CD001');
    expect(img.subarray(16 * SECTOR + 813, 16 * SECTOR + 827).toString('latin1')).toBe('20240506070809');
  });

  it('marks Rock Ridge in the root and keeps exact names in NM entries', () => {
    const pvd = descriptor(img, 16);
    const root = records(img, pvd.rootExtent, pvd.rootSize);
    const self = susp((root[0] as Rec).su);
    expect([...self.keys()]).toEqual(['SP', 'RR', 'PX', 'TF', 'CE']);
    const ce = self.get('CE') as Buffer;
    const erAt = ce.readUInt32LE(4) * SECTOR;
    expect(img.subarray(erAt, erAt + 2).toString('latin1')).toBe('ER');
    expect(img.subarray(erAt + 8, erAt + 18).toString('latin1')).toBe('RRIP_1991A');
    expect(ce.readUInt32LE(20)).toBe(img[erAt + 2]);

    const openstack = root.find((r) => r.id.toString('latin1') === 'openstack') as Rec;
    const latest = records(img, openstack.extent, openstack.size).find((r) => r.id.toString('latin1') === 'latest') as Rec;
    const files = records(img, latest.extent, latest.size).slice(2);
    expect(files.map((f) => f.id.toString('latin1'))).toEqual(['meta_data.json;1', 'user_data.;1']);
    const names = files.map((f) => (susp(f.su).get('NM') as Buffer).subarray(5).toString('utf8'));
    expect(names).toEqual(['meta_data.json', 'user_data']);
    const meta = files[0] as Rec;
    expect(img.subarray(meta.extent * SECTOR, meta.extent * SECTOR + meta.size).toString()).toBe('{"uuid":"u"}');
    const px = susp(meta.su).get('PX') as Buffer;
    expect(px.readUInt32LE(4)).toBe(0o100444);
  });

  it('points the Joliet tree at the same file data, with UCS-2 names', () => {
    const svd = descriptor(img, 17);
    const root = records(img, svd.rootExtent, svd.rootSize);
    const openstack = root[2] as Rec;
    expect(Buffer.from(openstack.id).swap16().toString('utf16le')).toBe('openstack');
    const latest = records(img, openstack.extent, openstack.size)[2] as Rec;
    const files = records(img, latest.extent, latest.size).slice(2);
    expect(files.map((f) => Buffer.from(f.id).swap16().toString('utf16le'))).toEqual(['meta_data.json', 'user_data']);
    const pvdRoot = records(img, descriptor(img, 16).rootExtent, descriptor(img, 16).rootSize);
    const pLatest = records(img, (pvdRoot[2] as Rec).extent, (pvdRoot[2] as Rec).size)[2] as Rec;
    expect(records(img, pLatest.extent, pLatest.size).slice(2).map((f) => f.extent)).toEqual(files.map((f) => f.extent));
    expect(files.every((f) => f.su.length === 0)).toBe(true);
  });

  it('is deterministic for the same input and date', () => {
    const again = writeIso9660({
      volumeId: 'config-2',
      date,
      files: [
        { path: 'openstack/latest/user_data', data: Buffer.from('#cloud-config\n') },
        { path: 'openstack/latest/meta_data.json', data: Buffer.from('{"uuid":"u"}') },
      ],
    });
    expect(again.equals(img)).toBe(true);
  });

  it('spreads a directory over several sectors without splitting a record', () => {
    const files = Array.from({ length: 40 }, (_, i) => ({ path: `d/file-with-a-long-name-number-${String(i).padStart(2, '0')}.json`, data: Buffer.from(String(i)) }));
    const big = writeIso9660({ volumeId: 'many', date, files });
    const pvd = descriptor(big, 16);
    const d = records(big, pvd.rootExtent, pvd.rootSize)[2] as Rec;
    expect(d.size).toBeGreaterThan(SECTOR);
    const recs = records(big, d.extent, d.size).slice(2);
    expect(recs).toHaveLength(40);
    for (const [i, r] of recs.entries()) {
      expect((susp(r.su).get('NM') as Buffer).subarray(5).toString()).toBe(`file-with-a-long-name-number-${String(i).padStart(2, '0')}.json`);
      expect(big.subarray(r.extent * SECTOR, r.extent * SECTOR + r.size).toString()).toBe(String(i));
    }
    expect(new Set(recs.map((r) => r.id.toString('latin1'))).size).toBe(40);
  });

  it('refuses paths readers cannot show as given', () => {
    const bad = (p: string) => () => writeIso9660({ volumeId: 'v', files: [{ path: p, data: Buffer.from('x') }] });
    expect(bad('a/b:c')).toThrow('Joliet cannot store');
    expect(bad(`a/${'x'.repeat(65)}`)).toThrow('longer than 64');
    expect(bad('a/b/c/d/e/f/g/h/i')).toThrow('deeper than 8');
    expect(() => writeIso9660({ volumeId: 'v', files: [{ path: 'a', data: Buffer.from('') }, { path: 'a/b', data: Buffer.from('') }] })).toThrow('both a file and a directory');
    expect(() => writeIso9660({ volumeId: 'a-label-that-is-too-long', files: [] })).toThrow('1 to 16 characters');
  });
});
