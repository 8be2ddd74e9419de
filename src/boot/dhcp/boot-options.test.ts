import { describe, expect, it } from 'vitest';
import { pxeBootOptions } from './boot-options.js';
import { optionLine } from './dnsmasq-lines.js';

const lines = (input: Parameters<typeof pxeBootOptions>[0]) => pxeBootOptions(input).map((o) => optionLine(null, o));

describe('pxeBootOptions', () => {
  it('iPXE: the script URL for iPXE, the loader by firmware for the rest, and the TFTP server', () => {
    expect(lines({ tftpServer: '10.0.0.5', biosBootFile: 'undionly.kpxe', uefiBootFile: 'snponly.efi', ipxeScriptUrl: 'http://10.0.0.1:8080/boot.ipxe' })).toEqual([
      'tag:!ipxe,tag:!efi,67,undionly.kpxe',
      'tag:!ipxe,tag:efi,67,snponly.efi',
      'tag:ipxe,67,http://10.0.0.1:8080/boot.ipxe',
      '66,10.0.0.5',
      '150,10.0.0.5',
      'option:server-ip-address,10.0.0.5',
    ]);
  });

  it('iPXE without a UEFI loader', () => {
    expect(lines({ tftpServer: '10.0.0.5', biosBootFile: 'undionly.kpxe', ipxeScriptUrl: 'http://h/boot.ipxe' }).slice(0, 2)).toEqual([
      'tag:!ipxe,67,undionly.kpxe',
      'tag:ipxe,67,http://h/boot.ipxe',
    ]);
  });

  it('plain PXE: one loader and the TFTP path prefix with a trailing slash', () => {
    expect(lines({ tftpServer: '10.0.0.5', biosBootFile: 'pxelinux.0', tftpPathPrefix: '/tftpboot' })).toEqual([
      '67,pxelinux.0',
      '210,/tftpboot/',
      '66,10.0.0.5',
      '150,10.0.0.5',
      'option:server-ip-address,10.0.0.5',
    ]);
  });
});
