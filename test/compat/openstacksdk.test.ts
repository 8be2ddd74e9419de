/**
 * Compatibility with Debian's openstacksdk 0.101 (the library under `openstack` tooling and Nova/Metal3
 * style automation): sdk_checks.py drives a fake-hardware node through its lifecycle and the error
 * cases; the expectations are what the real Ironic 21.4 answered (docs/compat.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, python, randomMac, requireClients, uniqueName, type Target } from '../support/openstack-clients.js';

interface SdkError {
  type: string;
  status: number | null;
  message: string;
}

interface SdkReport {
  auto_created: string;
  created: { name: string; driver: string; provision_state: string };
  found_by_name: boolean;
  got_by_name: boolean;
  states: [string, string][];
  port: { address: string; node_id: string };
  ports_of_node: string[];
  port_by_address: boolean;
  patched: { extra: Record<string, unknown>; properties: Record<string, unknown> };
  power_off: string;
  power_on: string;
  gone: boolean;
  errors: Record<string, SdkError | null>;
}

describe('openstacksdk (Debian python3-openstacksdk)', () => {
  let target: Target;
  let report: SdkReport;
  const name = uniqueName('sdk');
  const mac = randomMac();

  beforeAll(async () => {
    requireClients();
    target = await openTarget();
    report = await python<SdkReport>('sdk_checks.py', [name, mac], target.url);
  }, 300_000);

  afterAll(async () => {
    await target?.close();
  });

  it('creates nodes, moving them to available as the SDK does by default, and deletes available nodes', () => {
    expect(report.auto_created).toBe('available');
    expect(report.errors.delete_available).toBeNull();
    expect(report.created).toEqual({ name, driver: 'fake-hardware', provision_state: 'enroll' });
  });

  it('finds and gets nodes by name', () => {
    expect(report.found_by_name).toBe(true);
    expect(report.got_by_name).toBe(true);
  });

  it('walks manage, inspect, provide, deploy, undeploy, manage with wait=True', () => {
    expect(report.states).toEqual([
      ['manage', 'manageable'],
      ['inspect', 'manageable'],
      ['provide', 'available'],
      ['active', 'active'],
      ['deleted', 'available'],
      ['manage', 'manageable'],
    ]);
    expect(report.gone).toBe(true);
  });

  it('creates ports and lists them by node and by address', () => {
    expect(report.port.address).toBe(mac);
    expect(report.ports_of_node).toEqual([mac]);
    expect(report.port_by_address).toBe(true);
  });

  it('applies JSON Patch documents', () => {
    expect(report.patched.extra).toEqual({ team: 'blue' });
    expect(report.patched.properties).toEqual({ cpus: 8 });
  });

  it('powers nodes off and on with wait=True', () => {
    expect(report.power_off).toBe('power off');
    expect(report.power_on).toBe('power on');
  });

  it('gets Ironic’s errors as the SDK’s typed exceptions', () => {
    const e = report.errors;
    expect(e.not_found).toMatchObject({ type: 'ResourceNotFound', status: 404 });
    expect(e.not_found?.message).toContain(`Node no-such-node-${name} could not be found.`);
    expect(e.deploy_from_enroll).toMatchObject({ type: 'BadRequestException', status: 400 });
    expect(e.deploy_from_enroll?.message).toMatch(
      /The requested action "active" can not be performed on node "[0-9a-f-]{36}" while it is in state "enroll"\./,
    );
    expect(e.duplicate_name).toMatchObject({ type: 'ConflictException', status: 409 });
    expect(e.duplicate_name?.message).toContain(`A node with name ${name} already exists.`);
    expect(e.duplicate_mac).toMatchObject({ type: 'ConflictException', status: 409 });
    expect(e.duplicate_mac?.message).toContain(`A port with MAC address ${mac} already exists.`);
    expect(e.delete_active).toMatchObject({ type: 'ConflictException', status: 409 });
    expect(e.delete_active?.message).toMatch(
      /Can not delete node "[0-9a-f-]{36}" while it is in provision state "active"\./,
    );
  });
});
