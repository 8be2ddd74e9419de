import { describe, expect, it } from 'vitest';
import { parseIpxeScript } from './ipxe-script-parse.js';

const SCRIPT_URL = 'http://10.0.0.1:8088/pxelinux.cfg/52-54-00-aa-00-01';
const NODE = 'http://10.0.0.1:8088/1be26c0b-03f2-4d2e-ae87-c02d7f33c123';

// What the `ipxe` boot interface renders (renderIpxeScript) for an inspection boot with a 30 s timeout.
const RENDERED = [
  '#!ipxe',
  '',
  'goto deploy',
  '',
  ':deploy',
  'imgfree',
  `kernel --timeout 30000 ${NODE}/deploy_kernel selinux=0 troubleshoot=0 text nofb ipa-api-url=http://10.0.0.1:6385 ipa-inspection-callback-url=http://10.0.0.1:6385/v1/continue_inspection BOOTIF=01-52-54-00-aa-00-01 coreos.configdrive=0 initrd=deploy_ramdisk || goto deploy`,
  `initrd --timeout 30000 ${NODE}/deploy_ramdisk || goto deploy`,
  'boot',
  '',
].join('\n');

describe('parseIpxeScript', () => {
  it('reads the kernel, its command line and the initrd of a rendered script', () => {
    expect(parseIpxeScript(RENDERED, SCRIPT_URL)).toEqual({
      kernel: `${NODE}/deploy_kernel`,
      params: 'selinux=0 troubleshoot=0 text nofb ipa-api-url=http://10.0.0.1:6385 ipa-inspection-callback-url=http://10.0.0.1:6385/v1/continue_inspection BOOTIF=01-52-54-00-aa-00-01 coreos.configdrive=0 initrd=deploy_ramdisk',
      initrds: [`${NODE}/deploy_ramdisk`],
    });
  });

  it('reads a script without timeouts, with CRLF line ends', () => {
    const plain = RENDERED.replace(/--timeout 30000 /g, '').replace(/\n/g, '\r\n');
    const boot = parseIpxeScript(plain, SCRIPT_URL);
    expect(boot.kernel).toBe(`${NODE}/deploy_kernel`);
    expect(boot.params.startsWith('selinux=0 ')).toBe(true);
    expect(boot.initrds).toEqual([`${NODE}/deploy_ramdisk`]);
  });

  it('follows goto to the label, skips other sections, resolves relative URLs and takes image options', () => {
    const script = [
      '#!ipxe',
      'set timeout 5',
      'goto deploy',
      ':boot_whole_disk',
      'kernel http://wrong/kernel',
      'boot',
      ':deploy',
      'echo deploying',
      'kernel -n vmlinuz --timeout=5000 --autofree ../images/k ipa-api-url=http://api:6385',
      'initrd --name ramdisk /images/r1 || goto deploy',
      'module images/r2',
      'boot || goto deploy',
      ':unreached',
      'initrd http://wrong/initrd',
    ].join('\n');
    expect(parseIpxeScript(script, SCRIPT_URL)).toEqual({
      kernel: 'http://10.0.0.1:8088/images/k',
      params: 'ipa-api-url=http://api:6385',
      initrds: ['http://10.0.0.1:8088/images/r1', 'http://10.0.0.1:8088/pxelinux.cfg/images/r2'],
    });
  });

  it('refuses what is not a bootable iPXE script, saying why', () => {
    expect(() => parseIpxeScript('default deploy\nlabel deploy\n', SCRIPT_URL)).toThrow(/does not start with #!ipxe/);
    expect(() => parseIpxeScript('#!ipxe\ngoto nowhere\n', SCRIPT_URL)).toThrow(/goto nowhere names no label/);
    expect(() => parseIpxeScript('#!ipxe\ninitrd http://x/r\nboot\n', SCRIPT_URL)).toThrow(/loads no kernel/);
    expect(() => parseIpxeScript('#!ipxe\nkernel http://x/k\nimgfree\nboot\n', SCRIPT_URL)).toThrow(/loads no kernel/);
    expect(() => parseIpxeScript('#!ipxe\nsanboot --no-describe --drive 0x80\n', SCRIPT_URL)).toThrow(/line 2: sanboot/);
    expect(() => parseIpxeScript('#!ipxe\n:a\ngoto a\n', SCRIPT_URL)).toThrow(/loops without booting/);
    expect(() => parseIpxeScript('#!ipxe\nkernel --bogus http://x/k\n', SCRIPT_URL)).toThrow(/unknown image option --bogus/);
    expect(() => parseIpxeScript('#!ipxe\nkernel --timeout 5\n', SCRIPT_URL)).toThrow(/image URL is missing/);
    expect(() => parseIpxeScript('#!ipxe\nkernel ${base}/k\n', SCRIPT_URL)).toThrow(/iPXE settings/);
  });
});
