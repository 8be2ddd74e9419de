import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodeIn, startTestConductor, type TestConductor } from '../src/conductor/conductor.test-support.js';

let t: TestConductor;
beforeEach(async () => {
  t = await startTestConductor();
});
afterEach(async () => {
  await t.close();
});

describe('direct deploy: what instance_info must name', () => {
  const deployValidation = async (name: string, instance_info: Record<string, string>) => {
    await createNodeIn(t, name, 'enroll', {
      driver: 'manual-management', boot_interface: 'fake', deploy_interface: 'direct', power_interface: 'fake', management_interface: 'fake', instance_info,
    });
    return (await t.conductor.client.validate(name)).deploy;
  };

  it.each([
    ['an http image', 'http://images.example/disk.raw'],
    ['a file:// image', 'file:///srv/images/disk.raw'],
  ])('refuses %s without a checksum', async (_what, image_source) => {
    const v = await deployValidation('n1', { image_source });
    expect(v.result).toBe(false);
    expect(v.reason).toContain('"image_checksum", or "image_os_hash_algo" and "image_os_hash_value" must be provided in instance_info for node');
  });

  it('accepts a file:// image with a checksum', async () => {
    const v = await deployValidation('n2', { image_source: 'file:///srv/images/disk.raw', image_os_hash_algo: 'sha256', image_os_hash_value: 'a'.repeat(64) });
    expect(v).toEqual({ result: true, reason: null });
  });
});
