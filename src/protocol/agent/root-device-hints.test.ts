import { describe, it, expect } from 'vitest';
import { diskMatchesHints, findDevicesByHints, matchRootDeviceHints, parseRootDeviceHints, pyQuote, RootDeviceHintError, type HintDisk } from './root-device-hints.js';

const GIB = 2 ** 30;

// The devices of Ironic's MatchRootDeviceTestCase (ironic-lib tests/test_utils.py).
const DEVICES: HintDisk[] = [
  { name: '/dev/sda', size: 64424509440, model: 'ok model', serial: 'fakeserial' },
  { name: '/dev/sdb', size: 128849018880, model: 'big model', serial: 'veryfakeserial', rotational: 'yes' },
  { name: '/dev/sdc', size: 10737418240, model: 'small model', serial: 'veryveryfakeserial', rotational: false },
];

const pick = (hints: unknown) => matchRootDeviceHints(DEVICES, hints)?.name ?? null;

function bad(hints: unknown): string {
  try {
    parseRootDeviceHints(hints);
  } catch (err) {
    expect(err).toBeInstanceOf(RootDeviceHintError);
    expect((err as RootDeviceHintError).code).toBe('InvalidParameterValue');
    return (err as Error).message;
  }
  throw new Error(`hints ${JSON.stringify(hints)} were accepted`);
}

describe('matchRootDeviceHints (Ironic test cases)', () => {
  it('one hint', () => expect(pick({ size: '>= 70' })).toBe('/dev/sdb'));
  it('rotational false', () => expect(pick({ rotational: false })).toBe('/dev/sdc'));
  it('rotational converts the device value ("yes")', () => expect(pick({ size: '>=100', rotational: true })).toBe('/dev/sdb'));
  it('multiple hints', () => expect(pick({ size: '>= 50', model: 's==big model', serial: 's==veryfakeserial' })).toBe('/dev/sdb'));
  it('multiple hints with <or> and a trailing <or>', () => {
    expect(pick({ size: '<= 20', model: '<or> model 5 <or> foomodel <or> small model <or>', serial: 's== veryveryfakeserial' })).toBe('/dev/sdc');
  });
  it('<in> with rotational', () => expect(pick({ rotational: false, model: '<in> small' })).toBe('/dev/sdc'));
  it('no operators: == for numbers, s== for strings', () => expect(pick({ size: '120', model: 'big model', serial: 'veryfakeserial' })).toBe('/dev/sdb'));
  it('no device found', () => expect(pick({ size: '>=50', model: 's==foo' })).toBeNull());
  it('a device with an empty attribute does not match', () => {
    expect(matchRootDeviceHints([{ name: '/dev/sda', size: GIB * 10, model: ' ' }], { model: 'foo' })).toBeNull();
  });
  it('find all devices', () => {
    expect(findDevicesByHints(DEVICES, { size: '> 10' }).map((d) => d.name)).toEqual(['/dev/sda', '/dev/sdb']);
    expect(findDevicesByHints(DEVICES, { serial: '<in> fake' }).map((d) => d.name)).toEqual(['/dev/sda', '/dev/sdb', '/dev/sdc']);
  });
});

describe('documented examples (root-device-hints.inc)', () => {
  const disks: HintDisk[] = [
    { name: '/dev/sda', size: 40 * GIB, rotational: false, vendor: 'Samsung', wwn: '0x4000cca77fc4dba0' },
    { name: '/dev/sdb', size: 128 * GIB, rotational: true, vendor: 'WINSYS', wwn: '0x4000cca77fc4dba1' },
    { name: '/dev/sdc', size: 480 * GIB, rotational: false, vendor: 'Intel', wwn: '0x4000cca77fc4dba2' },
  ];
  it('a disk by wwn', () => expect(matchRootDeviceHints(disks, { wwn: '0x4000cca77fc4dba1' })?.name).toBe('/dev/sdb'));
  it('a disk ≥ 60 GiB and non-rotational', () => expect(matchRootDeviceHints(disks, { size: '>= 60', rotational: false })?.name).toBe('/dev/sdc'));
  it('vendor samsung or winsys, case-insensitively', () => {
    expect(findDevicesByHints(disks, { vendor: '<or> samsung <or> winsys' }).map((d) => d.name)).toEqual(['/dev/sda', '/dev/sdb']);
  });
  it('size with <range-in>, inclusive and exclusive bounds', () => {
    const names = (size: string) => findDevicesByHints(disks, { size }).map((d) => d.name);
    expect(names('<range-in> ( 10 100 )')).toEqual(['/dev/sda']);
    expect(names('<range-in> [ 40 128 ]')).toEqual(['/dev/sda', '/dev/sdb']);
    expect(names('<range-in> ( 40 128 ]')).toEqual(['/dev/sdb']);
    expect(names('<range-in> [ 40 128 )')).toEqual(['/dev/sda']);
    expect(names('<range-in> [40 480]')).toEqual(['/dev/sda', '/dev/sdb', '/dev/sdc']);
  });
  it('every numeric operator, including legacy = meaning >=', () => {
    const names = (size: string | number) => findDevicesByHints(disks, { size }).map((d) => d.name);
    expect(names(128)).toEqual(['/dev/sdb']);
    expect(names('== 128')).toEqual(['/dev/sdb']);
    expect(names('= 128')).toEqual(['/dev/sdb', '/dev/sdc']);
    expect(names('>= 128')).toEqual(['/dev/sdb', '/dev/sdc']);
    expect(names('> 128')).toEqual(['/dev/sdc']);
    expect(names('<= 128')).toEqual(['/dev/sda', '/dev/sdb']);
    expect(names('< 128')).toEqual(['/dev/sda']);
    expect(names('!= 128')).toEqual(['/dev/sda', '/dev/sdc']);
    expect(names('<or> 40 <or> 480')).toEqual(['/dev/sda', '/dev/sdc']);
  });
  it('every string operator', () => {
    const names = (vendor: string) => findDevicesByHints(disks, { vendor }).map((d) => d.name);
    expect(names('s== intel')).toEqual(['/dev/sdc']);
    expect(names('INTEL')).toEqual(['/dev/sdc']);
    expect(names('s!= intel')).toEqual(['/dev/sda', '/dev/sdb']);
    expect(names('s< samsung')).toEqual(['/dev/sdc']);
    expect(names('s<= samsung')).toEqual(['/dev/sda', '/dev/sdc']);
    expect(names('s> samsung')).toEqual(['/dev/sdb']);
    expect(names('s>= samsung')).toEqual(['/dev/sda', '/dev/sdb']);
    expect(names('<in> s')).toEqual(['/dev/sda', '/dev/sdb']);
    expect(names('<all-in> sam ung')).toEqual(['/dev/sda']);
  });
  it('a size is compared in GiB as a real number, as Ironic does', () => {
    const decimal = [{ name: '/dev/sda', size: 480e9 }]; // 447.03 GiB
    expect(matchRootDeviceHints(decimal, { size: 447 })).toBeNull();
    expect(matchRootDeviceHints(decimal, { size: '>= 447' })?.name).toBe('/dev/sda');
    expect(matchRootDeviceHints(decimal, { size: '<range-in> [ 440 450 ]' })?.name).toBe('/dev/sda');
  });
  it('values with spaces are normalised on both sides', () => {
    const d = [{ name: '/dev/sda', size: GIB * 8, model: 'Samsung SSD 850 PRO' }];
    expect(matchRootDeviceHints(d, { model: 'samsung ssd 850 pro' })?.name).toBe('/dev/sda');
    expect(matchRootDeviceHints(d, { model: '<in> SSD 850' })?.name).toBe('/dev/sda');
    expect(matchRootDeviceHints(d, { model: '<or> foo <or> Samsung SSD 850 PRO' })?.name).toBe('/dev/sda');
  });
  it('name, hctl and by_path hints', () => {
    const d = [
      { name: '/dev/sda', size: GIB * 8, hctl: '0:0:0:0', by_path: '/dev/disk/by-path/pci-0000:00:1f.2-ata-1' },
      { name: '/dev/md0', size: GIB * 8, hctl: '1:0:0:0', by_path: null },
    ];
    expect(matchRootDeviceHints(d, { name: '/dev/md0' })?.name).toBe('/dev/md0');
    expect(matchRootDeviceHints(d, { hctl: '1:0:0:0' })?.name).toBe('/dev/md0');
    expect(matchRootDeviceHints(d, { by_path: '<in> ata-1' })?.name).toBe('/dev/sda');
    expect(matchRootDeviceHints(d, { by_path: 's!= foo' })?.name).toBe('/dev/sda'); // null never matches
  });
});

describe('parseRootDeviceHints', () => {
  it('returns null without hints', () => {
    expect(parseRootDeviceHints(undefined)).toBeNull();
    expect(parseRootDeviceHints(null)).toBeNull();
    expect(parseRootDeviceHints({})).toBeNull();
  });
  it('adds the default operators and normalises strings', () => {
    expect(parseRootDeviceHints({ size: 12345, model: 'sAmSuNg', vendor: 'Foo Bar' })).toEqual([
      { name: 'size', kind: 'number', op: '==', value: 12345 },
      { name: 'model', kind: 'string', op: 's==', value: 'samsung' },
      { name: 'vendor', kind: 'string', op: 's==', value: 'foo%20bar' },
    ]);
    expect(parseRootDeviceHints({ model: '<in> MoDeL' })).toEqual([{ name: 'model', kind: 'string', op: '<in>', value: 'model' }]);
    expect(parseRootDeviceHints({ size: '<range-in> ( 10 20 ]' })).toEqual([{ name: 'size', kind: 'range', low: 10, high: 20, lowInclusive: false, highInclusive: true }]);
  });
  it('reads booleans as oslo strutils does', () => {
    for (const v of [true, 'true', 'True', '1', 1, 'yes', 'on', 't', 'y']) expect(parseRootDeviceHints({ rotational: v })).toEqual([{ name: 'rotational', kind: 'boolean', value: true }]);
    for (const v of [false, 'false', '0', 0, 'no', 'off', 'f', 'n']) expect(parseRootDeviceHints({ rotational: v })).toEqual([{ name: 'rotational', kind: 'boolean', value: false }]);
  });
  it('rejects bad hints with clear messages', () => {
    expect(bad({ foo: 1, size: 10 })).toBe('The hints "foo" are invalid. Valid hints are: "size, model, wwn, serial, vendor, wwn_with_extension, wwn_vendor_extension, name, rotational, hctl, by_path"');
    expect(bad({ wwn: 123456 })).toBe('Root device hint "wwn" is not a string value. Hint expression: 123456');
    expect(bad({ size: 'foo' })).toBe('Root device hint "size" is not an integer value. Current value: "foo"');
    expect(bad({ size: '>= 10.5' })).toMatch(/is not an integer value/);
    expect(bad({ size: 0 })).toBe('Root device hint "size" should be a positive integer. Current value: 0');
    expect(bad({ size: '-12345' })).toMatch(/should be a positive integer/);
    expect(bad({ rotational: 'foo' })).toBe('Root device hint "rotational" is not a Boolean value. Current value: "foo"');
    expect(bad({ model: '' })).toBe('Root device hint "model" expression is empty');
    expect(bad({ model: 's==' })).toBe('Root device hint "model": operator s== needs a value');
    expect(bad({ size: 's== 10' })).toMatch(/operator s== does not apply to numbers/);
    expect(bad({ model: '>= 10' })).toMatch(/operator >= does not apply to strings/);
    expect(bad({ model: '<range-in> [ 1 2 ]' })).toMatch(/operator <range-in> does not apply to strings/);
    expect(bad({ size: '<range-in> [ 300 200 ]' })).toMatch(/first <range-in> bound must not exceed the second/);
    expect(bad({ size: '<range-in> 10 20' })).toMatch(/<range-in> needs two numbers in brackets/);
    expect(bad({ size: '<or>' })).toMatch(/operator <or> needs a value|<or> needs at least one value/);
    expect(bad('size')).toMatch(/must be a dict/);
    expect(bad([{ size: 1 }])).toMatch(/must be a dict/);
  });
  it('quotes like Python urllib.parse.quote', () => {
    expect(pyQuote('a b/c~d_e.f-g')).toBe('a%20b/c~d_e.f-g');
    expect(pyQuote("(x)!*'")).toBe('%28x%29%21%2A%27');
    expect(pyQuote('é')).toBe('%C3%A9');
  });
  it('diskMatchesHints requires every hint', () => {
    const hints = parseRootDeviceHints({ size: '>= 60', serial: 'fakeserial' })!;
    expect(diskMatchesHints(DEVICES[0]!, hints)).toBe(true);
    expect(diskMatchesHints(DEVICES[1]!, hints)).toBe(false);
  });
});
