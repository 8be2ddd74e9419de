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

  it('UEFI HTTP boot only: the loader URL and vendor class HTTPClient for HTTP boot clients, nothing for PXE', () => {
    expect(lines({ tftpServer: '', biosBootFile: '', httpBootUrl: 'http://10.0.0.1:8088/bootx64.efi' })).toEqual([
      'tag:httpboot,67,http://10.0.0.1:8088/bootx64.efi',
      'tag:httpboot,60,HTTPClient',
    ]);
  });

  it('UEFI HTTP boot beside PXE: PXE firmware keeps its loaders and TFTP server, HTTP boot firmware gets the URL', () => {
    expect(lines({ tftpServer: '10.0.0.5', biosBootFile: 'pxelinux.0', uefiBootFile: 'bootx64.efi', httpBootUrl: 'http://h:8088/bootx64.efi' })).toEqual([
      'tag:httpboot,67,http://h:8088/bootx64.efi',
      'tag:httpboot,60,HTTPClient',
      'tag:!httpboot,tag:!efi,67,pxelinux.0',
      'tag:!httpboot,tag:efi,67,bootx64.efi',
      '66,10.0.0.5',
      '150,10.0.0.5',
      'option:server-ip-address,10.0.0.5',
    ]);
  });

  it.each(['', 'tftp://10.0.0.1/bootx64.efi', 'bootx64.efi', 'http:///x'])('refuses the HTTP boot URL %j', (url) => {
    expect(() => pxeBootOptions({ tftpServer: '', biosBootFile: '', httpBootUrl: url })).toThrow(expect.objectContaining({ name: 'InvalidParameterValue' }));
  });
});
