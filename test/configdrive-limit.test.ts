/**
 * A config drive the agent could never write (over its 64 MiB once inflated or rendered) is refused by the
 * provision request itself with a 400 in Ironic's envelope, and the node is left as it was.
 */
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { faultString, LATEST } from '../src/api/app.test-support.js';
import { createNodeIn } from '../src/conductor/conductor.test-support.js';
import type { Node } from '../src/domain/node.js';
import { startApiOnConductor, type ApiOnConductor } from './support/api-on-conductor.js';

const MiB = 1024 * 1024;
let a: ApiOnConductor;
beforeEach(async () => {
  a = await startApiOnConductor();
});
afterEach(async () => {
  await a.close();
});

async function deployWith(name: string, configdrive: unknown) {
  await createNodeIn(a.t, name, 'available', {
    driver: 'manual-management', boot_interface: 'fake', deploy_interface: 'fake', power_interface: 'fake', management_interface: 'fake',
    instance_info: { image_source: 'http://images.example/disk.raw', image_checksum: 'a'.repeat(64) },
  });
  const before = await a.t.store.nodes.get(name);
  const res = await a.app.inject({ method: 'PUT', url: `/v1/nodes/${name}/states/provision`, headers: LATEST, payload: { target: 'active', configdrive } });
  return { res, before, after: await a.t.store.nodes.get(name) };
}

/** The node without its row version, which taking and releasing the lock moves. */
const unlocked = (n: Node) => ({ ...n, version: 0 });

describe('config drive size', () => {
  it('refuses a gzip+base64 config drive that inflates past 64 MiB, changing nothing', async () => {
    const packed = gzipSync(Buffer.alloc(64 * MiB + 1)).toString('base64');
    const { res, before, after } = await deployWith('cd1', packed);
    expect(res.statusCode).toBe(400);
    expect(faultString(res.body)).toBe('The config drive of node ' + before.uuid + ' cannot be used: The config drive value inflates to more than 64 MiB (67108864 bytes), the most the agent writes.');
    expect(unlocked(after)).toEqual(unlocked(before));
  });

  it('refuses a JSON config drive that renders past images.max_configdrive_size_mib, changing nothing', async () => {
    await a.close();
    a = await startApiOnConductor({}, { images: { max_configdrive_size_mib: 1 } });
    // Under the API's 1 MiB body limit, over 1 MiB once rendered (the ISO's own 32 KiB system area and descriptors).
    const { res, before, after } = await deployWith('cd2', { meta_data: {}, user_data: 'x'.repeat(MiB - 8192) });
    expect(res.statusCode).toBe(400);
    expect(faultString(res.body)).toMatch(/cannot be used: The rendered config drive is .*, more than 1 MiB \(1048576 bytes\); shorten user_data\.$/);
    expect(unlocked(after)).toEqual(unlocked(before));
  });

  it('accepts one of exactly 64 MiB', async () => {
    const { res } = await deployWith('cd3', gzipSync(Buffer.alloc(64 * MiB)).toString('base64'));
    expect(res.statusCode).toBe(202);
  });
});
