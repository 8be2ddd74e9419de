/** Conformance suite of {@link ManagementInterface}. */
import { describe, expect, it } from 'vitest';
import type { BootDevice, Node } from '../../domain/node.js';
import { commonShape, sampleTask } from './case-support.js';
import type { ManagementInterface } from './management.js';

export function managementConformance(label: string, make: () => ManagementInterface, opts: { remembers: boolean; nodeFields?: Partial<Node> }): void {
  describe(`management interface conformance: ${label}`, () => {
    it('has a name and documented properties', () => expect(commonShape(make())).toEqual([]));
    it('lists supported boot devices including pxe', async () => {
      expect(await make().getSupportedBootDevices(sampleTask(opts.nodeFields))).toContain('pxe');
    });
    it('accepts every supported device', async () => {
      const m = make();
      const task = sampleTask(opts.nodeFields);
      for (const d of await m.getSupportedBootDevices(task)) {
        await m.setBootDevice(task, d, true);
        if (opts.remembers) expect(await m.getBootDevice(task)).toEqual({ boot_device: d, persistent: true });
      }
    });
    it('rejects a device it does not support', async () => {
      const m = make();
      const task = sampleTask(opts.nodeFields);
      const all: BootDevice[] = ['pxe', 'disk', 'cdrom', 'bios', 'safe', 'wanboot', 'floppy'];
      const supported = await m.getSupportedBootDevices(task);
      const other = all.find((d) => !supported.includes(d));
      if (other) await expect(m.setBootDevice(task, other, false)).rejects.toMatchObject({ code: 'InvalidParameterValue' });
      else expect(supported).toHaveLength(all.length);
    });
  });
}
