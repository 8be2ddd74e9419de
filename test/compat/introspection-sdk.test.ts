/**
 * Compatibility of the ironic-inspector API v1 listener with Debian's openstacksdk
 * (`baremetal_introspection`), against a real `ingot serve` started with `INGOT_API_INSPECTOR_PORT`:
 * introspection of a fake-hardware node (finishes at once), of an in-band `agent` node whose data is
 * posted to the legacy `POST /v1/continue`, an abort, the list and the errors.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileInventory } from '../../src/agent/hardware/simulated.js';
import { simulatedProfile } from '../../src/bmc/profiles.js';
import { startServer, type RunningServer } from '../support/server.js';
import { python, requireClients, uniqueName } from '../support/openstack-clients.js';

interface Status {
  id: string;
  state: string;
  is_finished: boolean;
  error: string | null;
  started_at: string | null;
  finished_at: string | null;
}

interface SdkError {
  type: string;
  status: number | null;
  message: string;
}

interface Report {
  errors: Record<string, SdkError | null>;
  started_id: string;
  fake_status: Status;
  fake_waited: Status;
  agent_waiting: Status;
  continue: { status: number; body: { uuid: string } };
  agent_status: Status;
  agent_data: { keys: string[]; cpu_count: number; interfaces: number };
  aborted_status: Status;
  list: string[];
  list_limit: string[];
  ids: { fake: string; agent: string; aborted: string };
}

describe('openstacksdk baremetal_introspection against the ironic-inspector listener', () => {
  let server: RunningServer | undefined;
  let dir: string | undefined;
  let report: Report;
  const profile = simulatedProfile(1, 'sdk-insp');

  beforeAll(async () => {
    requireClients();
    server = await startServer({ inspector: true });
    dir = await mkdtemp(path.join(tmpdir(), 'ingot-insp-sdk-'));
    const file = path.join(dir, 'inventory.json');
    await writeFile(file, JSON.stringify(profileInventory(profile, { bmcAddress: '10.40.0.2' })));
    report = await python<Report>('introspection_checks.py', [server.inspectorUrl as string, uniqueName('insp'), file, '10.40.0.2'], server.url);
  }, 300_000);

  afterAll(async () => {
    await server?.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('starts introspection of a fake-hardware node by name and sees it finished', () => {
    expect(report.errors.status_before).toMatchObject({ type: 'ResourceNotFound', status: 404 });
    expect(report.errors.status_before?.message).toContain('Introspection for node');
    expect(report.started_id).toBe(report.ids.fake);
    for (const s of [report.fake_status, report.fake_waited]) {
      expect(s).toMatchObject({ id: report.ids.fake, state: 'finished', is_finished: true, error: null });
      expect(s.started_at).toBeTruthy();
      expect(s.finished_at).toBeTruthy();
    }
    expect(report.errors.fake_data).toMatchObject({ status: 404 });
    expect(report.errors.fake_data?.message).toContain('Introspection data not found');
  });

  it('waits for the ramdisk, takes its data on /v1/continue and serves the processed data', () => {
    expect(report.agent_waiting).toMatchObject({ state: 'waiting', is_finished: false });
    expect(report.continue).toEqual({ status: 200, body: { uuid: report.ids.agent } });
    expect(report.agent_status).toMatchObject({ state: 'finished', is_finished: true, error: null });
    expect(report.agent_data.keys).toContain('inventory');
    expect(report.agent_data.cpu_count).toBe(profile.cpu.count);
    expect(report.agent_data.interfaces).toBe(profile.nics.length);
    expect(report.errors.unprocessed).toMatchObject({ status: 404 });
    expect(report.errors.unprocessed?.message).toContain('Unprocessed introspection data is not kept');
  });

  it('aborts an introspection, which ends in error; wait_for_introspection raises', () => {
    expect(report.aborted_status).toMatchObject({ state: 'error', is_finished: true });
    expect(report.aborted_status.error).toBeTruthy();
    expect(report.errors.aborted_wait).toMatchObject({ type: 'ResourceFailure' });
  });

  it('lists introspections newest first, honouring limit, and reports unknown nodes as 404', () => {
    expect(report.list).toEqual([report.ids.aborted, report.ids.agent, report.ids.fake]);
    expect(report.list_limit).toEqual([report.ids.aborted]);
    expect(report.errors.not_found).toMatchObject({ type: 'ResourceNotFound', status: 404 });
    expect(report.errors.not_found?.message).toContain('was not found');
  });
});
