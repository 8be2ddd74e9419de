import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { sampleTask } from '../interfaces/sample-task.test-support.js';
import { redfishInspect } from './inspect.js';
import { RedfishClientPool } from './pool.js';

const GIB = 1024 ** 3;
const S = '/redfish/v1/Systems/s1';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** A one-system BMC with one CPU, 16 GiB, a 100 GiB and a 2 GiB drive; `failing` paths answer 500. */
async function bmc(failing: string[]): Promise<string> {
  const app: FastifyInstance = Fastify();
  const ref = (p: string) => ({ '@odata.id': p });
  const routes: Record<string, unknown> = {
    '/redfish/v1/': { Systems: ref('/redfish/v1/Systems') },
    '/redfish/v1/Systems': { Members: [ref(S)] },
    [S]: {
      '@odata.id': S, ProcessorSummary: { LogicalProcessorCount: 8 }, MemorySummary: { TotalSystemMemoryGiB: 16 },
      Processors: ref(`${S}/Processors`), Storage: ref(`${S}/Storage`), SimpleStorage: ref(`${S}/SimpleStorage`),
      EthernetInterfaces: ref(`${S}/EthernetInterfaces`), Boot: { BootSourceOverrideMode: 'UEFI' },
    },
    [`${S}/Processors`]: { Members: [ref(`${S}/Processors/1`)] },
    [`${S}/Processors/1`]: { ProcessorType: 'CPU', InstructionSet: 'x86-64', TotalThreads: 8 },
    [`${S}/Storage`]: { Members: [ref(`${S}/Storage/1`)] },
    [`${S}/Storage/1`]: { Drives: [ref(`${S}/Storage/1/Drives/a`), ref(`${S}/Storage/1/Drives/b`)], Volumes: ref(`${S}/Storage/1/Volumes`) },
    [`${S}/Storage/1/Drives/a`]: { CapacityBytes: 100 * GIB },
    [`${S}/Storage/1/Drives/b`]: { CapacityBytes: 2 * GIB },
    [`${S}/Storage/1/Volumes`]: { Members: [] },
    [`${S}/SimpleStorage`]: { Members: [] },
    [`${S}/EthernetInterfaces`]: { Members: [ref(`${S}/EthernetInterfaces/1`)] },
    [`${S}/EthernetInterfaces/1`]: { MACAddress: '52:54:00:00:00:01' },
  };
  app.get('/*', async (req, reply) => {
    const path = req.url.split('?')[0] as string;
    if (failing.includes(path)) return reply.code(500).send({ error: { message: 'Not implemented' } });
    const body = routes[path];
    return body === undefined ? reply.code(404).send({ error: { message: 'not found' } }) : body;
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  cleanups.push(() => app.close());
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

async function inspect(failing: string[]) {
  const pool = new RedfishClientPool({ settings: { connection_attempts: 2, connection_retry_interval_ms: 1 } });
  cleanups.push(() => pool.close());
  const task = sampleTask({ driver: 'redfish', driver_info: { redfish_address: await bmc(failing), redfish_auth_type: 'basic' } });
  const outcome = await redfishInspect({ pool }).inspectHardware(task).catch((e: unknown) => e);
  return { outcome, task };
}

describe('redfish inspection and storage resources that answer an error', () => {
  it('computes local_gb from the drives when Volumes and SimpleStorage answer 500, as Ironic does', async () => {
    const { outcome, task } = await inspect([`${S}/Storage/1/Volumes`, `${S}/SimpleStorage`]);
    expect(outcome).toBe('done');
    expect(task.node.properties).toEqual({ cpus: 8, cpu_arch: 'x86_64', memory_mb: 16384, local_gb: 99, capabilities: 'boot_mode:uefi' });
    expect(task.reportedPorts).toEqual([{ address: '52:54:00:00:00:01', pxe_enabled: true }]);
  });

  it('reads a failing drive as absent and a failing Storage collection as no storage (local_gb 0)', async () => {
    expect((await inspect([`${S}/Storage/1/Drives/a`])).task.node.properties['local_gb']).toBe(0);
    expect((await inspect([`${S}/Storage`])).task.node.properties['local_gb']).toBe(0);
  });

  it('still fails when the processors answer 500 (no CPU facts)', async () => {
    const { outcome, task } = await inspect([`${S}/Processors`]);
    expect(outcome).toMatchObject({ code: 'DriverOperationError', message: expect.stringMatching(/answered 500 to GET \/redfish\/v1\/Systems\/s1\/Processors: Not implemented/) });
    expect(task.node.properties).toEqual({});
  });
});
