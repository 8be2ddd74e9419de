/**
 * The API suites reach the conductor through its contract as the run says: in the `api-json` project of
 * vitest.config.ts every call crosses the loopback JSON transport, elsewhere the API holds the client
 * itself. These checks fail when a suite's conductor bypasses the transport it should go through.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startApiOnConductor, type ApiOnConductor } from '../../test/support/api-on-conductor.js';
import { CONTRACT_TRANSPORT } from '../../test/support/contract.js';
import { createTestApi, LATEST, type TestApi } from './app.test-support.js';

let api: TestApi | undefined;
let real: ApiOnConductor | undefined;
afterEach(async () => {
  await api?.close();
  await real?.close();
  api = real = undefined;
});

/** A reason that is not JSON: the transport refuses it before the conductor sees the call. */
const NOT_JSON = new Date(0) as unknown as string;

describe('the conductor contract under the API suites', () => {
  it('goes over JSON exactly in the api-json project', ({ task }) => {
    expect(CONTRACT_TRANSPORT).toBe(task.file.projectName === 'api-json' ? 'json' : 'in-process');
  });

  it('puts the fake conductor of createTestApi behind the transport of the run', async () => {
    api = await createTestApi();
    const created = await api.app.inject({ method: 'POST', url: '/v1/nodes', headers: LATEST, payload: { driver: 'fake-hardware', name: 'c1' } });
    expect(created.statusCode, created.body).toBe(201);
    expect(api.conductor.calls).toEqual(['createNode']);
    if (CONTRACT_TRANSPORT === 'json') {
      expect(api.client).not.toBe(api.conductor);
      await expect(api.client.setMaintenance('c1', true, NOT_JSON)).rejects.toMatchObject({ code: 'Internal', message: expect.stringContaining('reason is a Date') });
      expect(api.conductor.calls).toEqual(['createNode']);
    } else {
      expect(api.client).toBe(api.conductor);
    }
  });

  it('puts the real conductor of startApiOnConductor behind the transport of the run', async () => {
    real = await startApiOnConductor();
    const created = await real.app.inject({ method: 'POST', url: '/v1/nodes', headers: LATEST, payload: { driver: 'fake-hardware', name: 'c2' } });
    expect(created.statusCode, created.body).toBe(201);
    if (CONTRACT_TRANSPORT === 'json') {
      expect(real.client).not.toBe(real.t.conductor.client);
      await expect(real.client.setMaintenance('c2', true, NOT_JSON)).rejects.toMatchObject({ code: 'Internal' });
      expect((await real.t.store.nodes.get('c2')).maintenance).toBe(false);
    } else {
      expect(real.client).toBe(real.t.conductor.client);
    }
  });
});
