import { describe, expect, it } from 'vitest';
import { isLabProgram } from './lab-down.js';
import { checkNamespaceName, hostVethName, labEntries, labPaths, vmMac } from './layout.js';

describe('the lab layout', () => {
  it('names the host veth within 15 characters, distinct per namespace', () => {
    expect(hostVethName('ingot-lab')).toBe('ingot-lab-h');
    const long = ['ingot-lab-test', 'ingot-lab-test2'].map(hostVethName);
    for (const name of long) expect(name.length).toBeLessThanOrEqual(15);
    expect(long[0]).not.toBe(long[1]);
  });

  it('accepts only ingot-lab… namespaces', () => {
    expect(checkNamespaceName('ingot-lab-2')).toBe('ingot-lab-2');
    for (const bad of ['default', 'ingot', 'ingot-lab/../x', `ingot-lab${'x'.repeat(41)}`]) expect(() => checkNamespaceName(bad)).toThrow(/ingot-lab/);
  });

  it('gives MACs 52:54:00:77:00:NN and keeps every file under the lab directory', () => {
    expect(vmMac(0)).toBe('52:54:00:77:00:01');
    expect(vmMac(15)).toBe('52:54:00:77:00:10');
    expect(() => vmMac(255)).toThrow('A lab has 1 to 255 machines, not 256.');
    const p = labPaths('/srv/lab/');
    for (const entry of labEntries(p)) expect(entry.startsWith('/srv/lab/')).toBe(true);
  });

  it('recognises the lab programs and nothing else', () => {
    expect(isLabProgram('/usr/bin/qemu-system-x86_64 -name guest=lab-1')).toBe(true);
    expect(isLabProgram('/usr/sbin/dnsmasq --no-daemon --conf-file=/srv/lab/ingot/dhcp/dnsmasq.conf')).toBe(true);
    expect(isLabProgram('/usr/bin/node /opt/ingot/bin/ingot.js serve --config /srv/lab/ingot-config.json')).toBe(true);
    expect(isLabProgram('node --max-semi-space-size=8 /usr/local/bin/ingot bmc --machines /srv/lab/machines.json')).toBe(true);
    expect(isLabProgram('tail -f /srv/lab/logs/ingot-serve.log')).toBe(false);
    expect(isLabProgram('/usr/bin/node /opt/ingot/bin/ingot.js lab down --dir /srv/lab')).toBe(false);
    expect(isLabProgram('python3 -m http.server serve')).toBe(false);
  });
});
