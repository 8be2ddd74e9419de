import { describe, it, expect } from 'vitest';
import { IngotError } from '../shared/errors.js';
import { DEFAULT_GLOBAL_REQUEST_TIMEOUT_S, loadAgentConfig, normalizeBootif, parseKernelCmdline } from './config.js';

function errorOf(fn: () => unknown): IngotError {
  try {
    fn();
  } catch (err) {
    if (err instanceof IngotError) return err;
    throw err;
  }
  throw new Error('expected an error');
}

describe('parseKernelCmdline', () => {
  it('splits key=value and bare words, honours quotes and stops at --', () => {
    const p = parseKernelCmdline('console=ttyS0 quiet ipa-debug=1 x="a b" BOOTIF=01-52-54-00-12-34-56 -- ipa-standalone=1\n');
    expect(p.get('console')).toBe('ttyS0');
    expect(p.get('quiet')).toBe('');
    expect(p.get('x')).toBe('a b');
    expect(p.get('BOOTIF')).toBe('01-52-54-00-12-34-56');
    expect(p.has('ipa-standalone')).toBe(false);
  });
});

describe('normalizeBootif', () => {
  it('accepts the pxelinux form and plain MACs', () => {
    expect(normalizeBootif('01-52-54-00-AB-CD-EF')).toBe('52:54:00:ab:cd:ef');
    expect(normalizeBootif('52:54:00:ab:cd:ef')).toBe('52:54:00:ab:cd:ef');
    expect(normalizeBootif('52-54-00-ab-cd-ef')).toBe('52:54:00:ab:cd:ef');
  });
  it('names BOOTIF when the value is not a MAC', () => {
    const err = errorOf(() => normalizeBootif('01-zz'));
    expect(err.code).toBe('InvalidParameterValue');
    expect(err.message).toMatch(/^BOOTIF: "01-zz"/);
  });
});

describe('loadAgentConfig', () => {
  it('has IPA defaults when nothing is given', () => {
    const c = loadAgentConfig('', []);
    expect(c.inspectionCallbackUrl).toBeNull();
    expect(c.inspectionCollectors).toEqual(['default']);
    expect(c.hardwareManager).toBe('linux');
    expect(c.globalRequestTimeoutS).toBe(DEFAULT_GLOBAL_REQUEST_TIMEOUT_S);
    expect(c.debug).toBe(false);
    expect(c.unknown).toEqual({});
  });

  it('reads every ipa-* parameter from the kernel command line', () => {
    const c = loadAgentConfig(
      [
        'ipa-inspection-callback-url=http://10.0.0.1:6385/v1/continue_inspection',
        'ipa-api-url=https://ironic.example:6385',
        'ipa-inspection-collectors=default,logs,,pci-devices',
        'ipa-debug',
        'ipa-inspection-dhcp-all-interfaces=true',
        'ipa-collect-lldp=1',
        'ipa-standalone=yes',
        'ipa-insecure=0',
        'ipa-global-request-timeout=42',
        'ipa-hardware-manager=simulated',
        'ipa-simulated-profile=/etc/profile.json',
        'BOOTIF=01-aa-bb-cc-dd-ee-ff',
      ].join(' '),
      [],
    );
    expect(c).toMatchObject({
      inspectionCallbackUrl: 'http://10.0.0.1:6385/v1/continue_inspection',
      apiUrl: 'https://ironic.example:6385',
      inspectionCollectors: ['default', 'logs', 'pci-devices'],
      debug: true,
      inspectionDhcpAllInterfaces: true,
      collectLldp: true,
      standalone: true,
      insecure: false,
      globalRequestTimeoutS: 42,
      hardwareManager: 'simulated',
      simulatedProfile: '/etc/profile.json',
      bootMac: 'aa:bb:cc:dd:ee:ff',
    });
  });

  it('lets flags win over the kernel command line, in dash, underscore and spaced forms', () => {
    const c = loadAgentConfig('ipa-inspection-collectors=logs ipa-debug=1 ipa-global-request-timeout=5', [
      '--inspection-collectors=default,extra-hardware',
      '--debug=false',
      '--global_request_timeout',
      '9',
      '--ipa-insecure',
    ]);
    expect(c.inspectionCollectors).toEqual(['default', 'extra-hardware']);
    expect(c.debug).toBe(false);
    expect(c.globalRequestTimeoutS).toBe(9);
    expect(c.insecure).toBe(true);
  });

  it('keeps unknown ipa-* keys and unknown flags without failing; ignores other kernel words', () => {
    const c = loadAgentConfig('quiet ipa-ntp-server=10.0.0.1 ipa-future-thing', ['--frobnicate=3']);
    expect(c.unknown).toEqual({ 'ipa-ntp-server': '10.0.0.1', 'ipa-future-thing': '', '--frobnicate': '3' });
  });

  it.each([
    ['ipa-inspection-callback-url=ftp://x/', [], /^ipa-inspection-callback-url: .*http:\/\//],
    ['ipa-inspection-callback-url=mdns', [], /^ipa-inspection-callback-url: "mdns" is not a URL/],
    ['ipa-debug=maybe', [], /^ipa-debug: "maybe" is not a boolean/],
    ['ipa-global-request-timeout=-3', [], /^ipa-global-request-timeout: "-3"/],
    ['ipa-hardware-manager=windows', [], /^ipa-hardware-manager: "windows" is not a hardware manager/],
    ['', ['--hardware-manager=qemu'], /^--hardware-manager: "qemu"/],
    ['', ['--api-url=not a url'], /^--api-url: "not a url" is not a URL/],
    ['', ['positional'], /Unexpected argument "positional"/],
  ] as const)('names the bad parameter: %s %j', (cmdline, argv, message) => {
    const err = errorOf(() => loadAgentConfig(cmdline, [...argv]));
    expect(err.code).toBe('InvalidParameterValue');
    expect(err.message).toMatch(message);
  });

  it('reports a flag missing its value', () => {
    const err = errorOf(() => loadAgentConfig('', ['--inspection-callback-url']));
    expect(err.code).toBe('MissingParameterValue');
    expect(err.message).toMatch(/^--inspection-callback-url: a value is required/);
  });

  it('reads --help and --print-payload', () => {
    expect(loadAgentConfig('', ['--help']).help).toBe(true);
    expect(loadAgentConfig('', ['--print-payload']).printPayload).toBe(true);
  });
});

describe('deploy agent parameters', () => {
  it('reads IPA’s listen, advertise, lookup, token and download parameters, with IPA’s defaults', () => {
    const d = loadAgentConfig('', []);
    expect(d).toMatchObject({ listenHost: '0.0.0.0', listenPort: 9999, advertiseHost: null, lookupTimeoutS: 600, lookupIntervalS: 1, imageDownloadRetries: 9, imageDownloadRetryIntervalS: 10, imageDownloadTimeoutS: 60 });
    const c = loadAgentConfig('ipa-listen-port=0 ipa-listen-host=127.0.0.1 ipa-advertise-host=192.0.2.5 ipa-advertise-port=8999 ipa-lookup-timeout=30 ipa-lookup-interval=0.5 ipa-agent-token=abc ipa-image-download-connection-retries=0', ['--simulated-disk=/dev/sda=/tmp/a.img']);
    expect(c).toMatchObject({ listenPort: 0, listenHost: '127.0.0.1', advertiseHost: '192.0.2.5', advertisePort: 8999, lookupTimeoutS: 30, lookupIntervalS: 0.5, agentToken: 'abc', imageDownloadRetries: 0, simulatedDisks: '/dev/sda=/tmp/a.img' });
    expect(c.unknown).toEqual({});
  });

  it.each([
    ['ipa-listen-port=70000', /^ipa-listen-port: "70000" is not a port number/],
    ['ipa-image-download-connection-retries=1.5', /is not a whole number/],
    ['ipa-lookup-interval=-1', /is not a number of seconds/],
  ])('refuses %s', (cmdline, message) => {
    expect(() => loadAgentConfig(cmdline, [])).toThrow(message);
  });
});
