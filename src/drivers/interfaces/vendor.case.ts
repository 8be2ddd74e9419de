/** Conformance suite of {@link VendorInterface}. */
import { describe, expect, it } from 'vitest';
import { commonShape, sampleTask } from './sample-task.test-support.js';
import type { VendorInterface } from './vendor.js';

export function vendorConformance(label: string, make: () => VendorInterface): void {
  describe(`vendor interface conformance: ${label}`, () => {
    it('has a name and documented properties', () => expect(commonShape(make())).toEqual([]));
    it('describes each method with its HTTP methods', () => {
      for (const m of Object.values(make().methods)) expect(m.http_methods.length).toBeGreaterThan(0);
    });
    it('rejects an unknown method', async () => {
      await expect(make().call(sampleTask(), 'no_such_method_xyz', 'POST', {})).rejects.toMatchObject({ code: 'InvalidParameterValue' });
    });
  });
}
