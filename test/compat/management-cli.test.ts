/**
 * Debian's `baremetal` CLI (python3-ironicclient 5.0.1) sending NMIs and setting boot modes on
 * fake-hardware nodes (`baremetal node inject nmi`, `baremetal node boot mode set`), checked by what a
 * client of the real Ironic sees: the commands succeed, the node is left unlocked without an error, and
 * the boot mode reads back in the node and in `GET /v1/nodes/{node}/states`. (That the NMI reaches the
 * driver is src/conductor/flows/management.test.ts's; the fake driver's bookkeeping in
 * driver_internal_info is Ingot's own and src/drivers/fake/fake.test.ts's.)
 */
import { describe, expect, it } from 'vitest';
import { api, waitNode } from '../support/http.js';
import { baremetal, baremetalJson, baremetalOk, CLIENT_VERSION, errorLine, uniqueName, useTarget } from '../support/openstack-clients.js';

interface NodeView extends Record<string, unknown> {
  uuid: string;
  boot_mode: string | null;
  last_error: string | null;
  reservation: string | null;
}

describe('baremetal CLI: NMI and boot mode', () => {
  const target = useTarget();

  it('injects NMIs into a fake-hardware node: each succeeds and leaves the node unlocked, without an error', async () => {
    const name = uniqueName('cli-nmi');
    await baremetalJson(target.url, ['node', 'create', '--driver', 'fake-hardware', '--name', name]);
    for (let i = 0; i < 2; i++) {
      const r = await baremetalOk(target.url, ['node', 'inject', 'nmi', name]);
      expect(r.stderr).toBe('');
      const node = (await api<NodeView>(target.url, 'GET', `/v1/nodes/${name}`, undefined, CLIENT_VERSION)).body;
      expect(node).toMatchObject({ reservation: null, last_error: null, provision_state: 'enroll' });
    }
  });

  it('prints the UnsupportedDriverExtension of a manual-management node and exits non-zero', async () => {
    const name = uniqueName('cli-nmi-mm');
    await baremetalJson(target.url, ['node', 'create', '--driver', 'manual-management', '--name', name]);
    const r = await baremetal(target.url, ['node', 'inject', 'nmi', name]);
    expect(r.code).not.toBe(0);
    expect(errorLine(r)).toContain('Driver manual-management does not support inject_nmi (disabled or not implemented).');
  });

  it('sets the boot mode of a fake-hardware node; GET …/states shows it', async () => {
    const name = uniqueName('cli-bootmode');
    await baremetalJson(target.url, ['node', 'create', '--driver', 'fake-hardware', '--name', name]);
    await baremetalOk(target.url, ['node', 'boot', 'mode', 'set', name, 'uefi']);
    const node = await waitNode<NodeView>(target.url, name, (n) => n.reservation === null && n.boot_mode === 'uefi', 10_000, CLIENT_VERSION);
    expect(node.last_error).toBeNull();
    const states = await api<{ boot_mode: string | null; secure_boot: boolean | null }>(target.url, 'GET', `/v1/nodes/${name}/states`, undefined, CLIENT_VERSION);
    expect(states.status).toBe(200);
    expect(states.body).toMatchObject({ boot_mode: 'uefi', secure_boot: null });

    await baremetalOk(target.url, ['node', 'boot', 'mode', 'set', name, 'bios']);
    await waitNode<NodeView>(target.url, name, (n) => n.reservation === null && n.boot_mode === 'bios', 10_000, CLIENT_VERSION);
    const shown = await baremetalJson<{ boot_mode: string | null }>(target.url, ['node', 'show', name, '--fields', 'boot_mode']);
    expect(shown.boot_mode).toBe('bios');
  });
});
