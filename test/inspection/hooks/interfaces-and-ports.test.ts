import { describe, it, expect } from 'vitest';
import { portsHook } from '../../../src/inspection/hooks/ports.js';
import { validateInterfacesHook } from '../../../src/inspection/hooks/validate-interfaces.js';
import { validateInspectionPayload } from '../../../src/inspection/validate.js';
import type { InspectorConfig } from '../../../src/config/inspector.js';
import { simulatedProfile } from '../../../src/bmc/profiles.js';
import { hookContext, payloadFromProfile, portRecord, withInterfaces } from '../processing-fixtures.js';
import type { Port } from '../../../src/domain/node.js';

// Machine 2 of the fleet has 4 NICs: eth0 boots (PXE) and has an address, eth1..3 have none.
const profile = simulatedProfile(2);
const payload = () => validateInspectionPayload(payloadFromProfile(profile, 2));
const macs = profile.nics.map((n) => n.mac);

function ports(config: Partial<InspectorConfig>, existing: Port[] = [], body = payload()) {
  return portsHook.run!(withInterfaces(hookContext({ payload: body, ports: existing, config })));
}

describe('validate-interfaces', () => {
  it('records all interfaces, marks the boot NIC and selects per add_ports', () => {
    const r = validateInterfacesHook.preprocess!(hookContext({ payload: payload() }));
    const all = r.pluginData!.all_interfaces as Record<string, { pxe_enabled: boolean }>;
    expect(Object.keys(all)).toEqual(['eth0', 'eth1', 'eth2', 'eth3']);
    expect(Object.entries(all).filter(([, i]) => i.pxe_enabled).map(([n]) => n)).toEqual(['eth0']);
    expect(r.pluginData!.macs).toEqual([macs[0]]);
    const active = validateInterfacesHook.preprocess!(hookContext({ payload: payload(), config: { add_ports: 'active' } }));
    expect(active.pluginData!.macs).toEqual([macs[0]]);
    const every = validateInterfacesHook.preprocess!(hookContext({ payload: payload(), config: { add_ports: 'all' } }));
    expect(every.pluginData!.macs).toEqual(macs);
  });

  it('skips the loopback and non-Ethernet addresses, and fails when nothing is left', () => {
    const body = payload();
    body.inventory.interfaces = [
      { ...body.inventory.interfaces[0]!, name: 'lo', mac_address: '00:00:00:00:00:00', ipv4_address: '127.0.0.1' },
      { ...body.inventory.interfaces[0]!, name: 'ib0', mac_address: 'a0:00:02:20:fe:80:00:00:00:00:00:00:00:02:c9:03:00:0e:2e:71' },
    ];
    body.inventory.boot.pxe_interface = null;
    const r = validateInterfacesHook.preprocess!(hookContext({ payload: body, config: { add_ports: 'all' } }));
    expect(r.failure).toBe('Inventory is invalid: no network interfaces match the configuration (add_ports set to "all")');
    body.inventory.interfaces = body.inventory.interfaces.slice(1);
    expect(validateInterfacesHook.preprocess!(hookContext({ payload: body })).failure).toBe('Inventory is invalid: no valid network interfaces');
  });

  it('with add_ports=active fails when no interface has an address', () => {
    const body = payload();
    for (const i of body.inventory.interfaces) i.ipv4_address = null;
    expect(validateInterfacesHook.preprocess!(hookContext({ payload: body, config: { add_ports: 'active' } })).failure).toMatch(/add_ports set to "active"/);
  });

  it('falls back to interfaces with addresses when the boot NIC is unknown (add_ports=pxe)', () => {
    const body = payload();
    body.inventory.boot.pxe_interface = null;
    body.boot_interface = null;
    body.inventory.interfaces[2]!.ipv6_address = 'fd00::5%eth2';
    const r = validateInterfacesHook.preprocess!(hookContext({ payload: body }));
    expect(r.pluginData!.macs).toEqual([macs[0], macs[2]]);
    expect((r.pluginData!.all_interfaces as Record<string, { ipv6_address: string }>).eth2!.ipv6_address).toBe('fd00::5');
    expect(r.notes![0]!.level).toBe('warning');
  });

  it('uses boot_interface (pxelinux form) when the inventory lacks pxe_interface', () => {
    const body = payload();
    body.inventory.boot.pxe_interface = null;
    expect(body.boot_interface).toBe(macs[0]);
    body.boot_interface = macs[3]!;
    expect(validateInterfacesHook.preprocess!(hookContext({ payload: body })).pluginData!.macs).toEqual([macs[3]]);
  });
});

describe('ports', () => {
  it('add_ports=pxe creates only the boot NIC port, PXE-enabled', () => {
    const r = ports({ add_ports: 'pxe' });
    expect(r.createPorts).toEqual([{ address: macs[0], fields: { pxe_enabled: true, extra: {} } }]);
  });

  it('add_ports=active creates ports for NICs with addresses; all creates every port; disabled none', () => {
    const body = payload();
    body.inventory.interfaces[1]!.ipv4_address = '10.9.0.2';
    expect(ports({ add_ports: 'active' }, [], body).createPorts!.map((c) => c.address)).toEqual([macs[0], macs[1]]);
    const all = ports({ add_ports: 'all' }).createPorts!;
    expect(all.map((c) => [c.address, c.fields.pxe_enabled])).toEqual([[macs[0], true], [macs[1], false], [macs[2], false], [macs[3], false]]);
    expect(ports({ add_ports: 'disabled' }).createPorts).toEqual([]);
  });

  it('does not re-create an existing port and records the DHCP client id', () => {
    const body = payload();
    body.inventory.interfaces[1]!.client_id = 'ff:00:00:00:00:00:02:00:00:02:c9:00';
    const r = ports({ add_ports: 'all' }, [portRecord(macs[0]!)], body);
    expect(r.createPorts!.map((c) => c.address)).toEqual([macs[1], macs[2], macs[3]]);
    expect(r.createPorts![0]!.fields.extra).toEqual({ 'client-id': 'ff:00:00:00:00:00:02:00:00:02:c9:00' });
  });

  it('keep_ports: all keeps, present drops MACs not in the inventory, added drops MACs not selected', () => {
    const stranger = portRecord('52:54:00:ff:ff:ff');
    const nic3 = portRecord(macs[3]!, { pxe_enabled: false });
    expect(ports({ keep_ports: 'all' }, [stranger, nic3]).deletePorts).toEqual([]);
    expect(ports({ keep_ports: 'present' }, [stranger, nic3]).deletePorts!.map((d) => d.address)).toEqual([stranger.address]);
    const added = ports({ keep_ports: 'added' }, [stranger, nic3]).deletePorts!;
    expect(added.map((d) => d.address)).toEqual([stranger.address, nic3.address]);
    expect(added[0]!.reason).toMatch(/not in the expected MAC list/);
  });

  it('updates pxe_enabled on existing ports to match the boot NIC, unless disabled', () => {
    const existing = [portRecord(macs[0]!, { pxe_enabled: false }), portRecord(macs[1]!, { pxe_enabled: true })];
    expect(ports({}, existing).updatePorts).toEqual([
      { address: macs[0], fields: { pxe_enabled: true } },
      { address: macs[1], fields: { pxe_enabled: false } },
    ]);
    expect(ports({ update_pxe_enabled: false }, existing).updatePorts).toEqual([]);
  });

  it('leaves pxe_enabled alone when the boot NIC is unknown', () => {
    const body = payload();
    body.inventory.boot.pxe_interface = null;
    body.boot_interface = null;
    const r = ports({ add_ports: 'all' }, [portRecord(macs[1]!, { pxe_enabled: true })], body);
    expect(r.updatePorts).toEqual([]);
    expect(r.createPorts!.every((c) => c.fields.pxe_enabled === true)).toBe(true);
  });
});
