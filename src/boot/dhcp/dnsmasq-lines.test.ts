import { describe, expect, it } from 'vitest';
import {
  hostEntry, hostFileName, macOfHostFile, nodeTag, optionLine, parseHostFile, parseUnknownHostsFile, renderHostFile, renderOptsFile,
  renderUnknownHostsFile, tagOfOptsFile, UNKNOWN_HOSTS_FILE,
} from './dnsmasq-lines.js';

const MAC = '52:54:00:12:34:56';

describe('dnsmasq host entries', () => {
  it('tag the MAC when it has node options, whatever the filter says', () => {
    for (const filter of ['allow', 'deny', 'none'] as const) {
      expect(hostEntry({ mac: MAC, node: 'n', tag: 'ingot-n-1', filter }, 'deny')).toBe(`${MAC},set:ingot-n-1,set:ingot`);
    }
  });

  it('ignore a denied MAC, answer an allowed one, and let the unknown policy decide the rest', () => {
    const host = (filter: 'allow' | 'deny' | 'none') => ({ mac: MAC, node: null, tag: null, filter });
    expect(hostEntry(host('deny'), 'allow')).toBe(`${MAC},ignore`);
    expect(hostEntry(host('allow'), 'deny')).toBe(MAC);
    expect(hostEntry(host('none'), 'deny')).toBe(`${MAC},ignore`);
    expect(hostEntry(host('none'), 'allow')).toBe(MAC);
    expect(hostEntry(host('none'), null)).toBe(MAC);
  });

  it('record their state in a header that reads back', () => {
    const state = { mac: MAC, node: '1be26c0b-03f2-4d2e-ae87-c02d7f33c123', tag: 'ingot-x-1', filter: 'deny' as const };
    const text = renderHostFile(state, 'allow');
    expect(text).toBe(`# ingot: node=${state.node} tag=ingot-x-1 filter=deny\n${MAC},set:ingot-x-1,set:ingot\n`);
    expect(parseHostFile(MAC, text)).toEqual(state);
    expect(parseHostFile(MAC, renderHostFile({ mac: MAC, node: null, tag: null, filter: 'none' }, null))).toEqual({ mac: MAC, node: null, tag: null, filter: 'none' });
    expect(parseHostFile(MAC, `${MAC},ignore\n`)).toBeUndefined();
  });

  it('live in files named after the MAC', () => {
    expect(hostFileName(MAC)).toBe('ingot-52-54-00-12-34-56.conf');
    expect(macOfHostFile('ingot-52-54-00-12-34-56.conf')).toBe(MAC);
    expect(macOfHostFile(UNKNOWN_HOSTS_FILE)).toBeUndefined();
    expect(macOfHostFile('52-54-00-12-34-56')).toBeUndefined();
  });

  it('have a wildcard entry for unknown MACs', () => {
    expect(renderUnknownHostsFile('deny')).toBe('# ingot: unknown=deny\n*:*:*:*:*:*,ignore\n');
    expect(renderUnknownHostsFile('allow')).toBe('# ingot: unknown=allow\n*:*:*:*:*:*\n');
    expect(parseUnknownHostsFile(renderUnknownHostsFile('deny'))).toBe('deny');
    expect(parseUnknownHostsFile('*:*:*:*:*:*\n')).toBeUndefined();
  });
});

describe('dnsmasq option lines', () => {
  it('put the node tag first, then the option tags, the option and its values', () => {
    expect(optionLine('ingot-n-1', { option: 67, value: 'undionly.kpxe', tags: ['!ipxe', 'efi'] })).toBe('tag:ingot-n-1,tag:!ipxe,tag:efi,67,undionly.kpxe');
    expect(optionLine('t', { option: 'server-ip-address', value: '10.0.0.1' })).toBe('tag:t,option:server-ip-address,10.0.0.1');
    expect(optionLine('t', { option: 'option:tftp-server', value: '10.0.0.1' })).toBe('tag:t,option:tftp-server,10.0.0.1');
    expect(optionLine('t', { option: '150', value: ['10.0.0.1', '10.0.0.2'] })).toBe('tag:t,150,10.0.0.1,10.0.0.2');
    expect(optionLine(null, { option: 67, value: 'a' })).toBe('67,a');
  });

  it('quote values dnsmasq would split or cut', () => {
    expect(optionLine('t', { option: 67, value: 'http://h/boot.ipxe?a=1,b=2' })).toBe('tag:t,67,"http://h/boot.ipxe?a=1,b=2"');
    expect(optionLine('t', { option: 67, value: 'a#b "c" \\d' })).toBe('tag:t,67,"a#b \\"c\\" \\\\d"');
  });

  it('refuse what dnsmasq would misread', () => {
    const bad = [
      { option: 0, value: 'x' }, { option: 255, value: 'x' }, { option: 1.5, value: 'x' }, { option: 'Bootfile', value: 'x' },
      { option: 67, value: '' }, { option: 67, value: 'a\rb' }, { option: 67, value: [] }, { option: 67, value: 'x', tags: ['a,b'] },
      { option: 67, value: 'x', tags: ['!'] },
    ];
    for (const option of bad) expect(() => optionLine('t', option), JSON.stringify(option)).toThrow(expect.objectContaining({ name: 'InvalidParameterValue' }));
  });

  it('make an option file of a node tag', () => {
    expect(renderOptsFile('n', 't', [{ option: 67, value: 'a' }, { option: 66, value: '10.0.0.1' }])).toBe('# ingot: node=n tag=t\ntag:t,67,a\ntag:t,66,10.0.0.1\n');
    expect(tagOfOptsFile('ingot-n-1.conf')).toBe('ingot-n-1');
    expect(tagOfOptsFile('other.conf')).toBeUndefined();
    expect(tagOfOptsFile(hostFileName(MAC))).toBeUndefined();
  });

  it('make node tags dnsmasq accepts from any node UUID', () => {
    expect(nodeTag('1be26c0b-03f2-4d2e-ae87-c02d7f33c123', 'abcd0123')).toBe('ingot-1be26c0b-03f2-4d2e-ae87-c02d7f33c123-abcd0123');
    expect(nodeTag('a b/c', '1')).toBe('ingot-a-b-c-1');
  });
});
