/** Conformance suite of {@link ManagementInterface}. */
import { describe, expect, it } from 'vitest';
import type { BootDevice, Node } from '../../domain/node.js';
import { commonShape, sampleTask } from './sample-task.test-support.js';
import { BOOT_MODES, type BootMode, type ManagementInterface } from './management.js';

/** How an implementation is expected to behave in {@link managementConformance}. */
export interface ManagementCaseOptions {
  /** The implementation reads back what it set (boot device, boot mode). */
  remembers: boolean;
  /** Node fields of the sample task (e.g. `driver_info` of a BMC). */
  nodeFields?: Partial<Node>;
  /** The implementation carries the optional methods only to refuse them with UnsupportedDriverExtension (`noop`). */
  refusesOptional?: boolean;
  /** Inject an NMI through `injectNmi`; leave off for machines that refuse one (ipmi_sim does). */
  injectsNmi?: boolean;
  /** The image URL the virtual media cases attach, read when they run (a BMC that fetches it needs a real one). */
  mediaUrl?: () => string;
}

export function managementConformance(label: string, make: () => ManagementInterface, opts: ManagementCaseOptions): void {
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

    it('has the boot mode methods all together or none of them', () => {
      const m = make();
      const present = [m.getSupportedBootModes, m.getBootMode, m.setBootMode].map((f) => typeof f === 'function');
      expect(new Set(present).size).toBe(1);
      if (opts.refusesOptional) expect(present[0] && typeof m.injectNmi === 'function').toBe(true);
    });

    it('has the virtual media methods all together or none of them', () => {
      const m = make();
      const present = [m.getVirtualMedia, m.attachVirtualMedia, m.detachVirtualMedia].map((f) => typeof f === 'function');
      expect(new Set(present).size).toBe(1);
    });

    const vmProbe = make();
    if (vmProbe.getVirtualMedia && vmProbe.attachVirtualMedia && vmProbe.detachVirtualMedia) {
      type WithVmedia = Required<Pick<ManagementInterface, 'getVirtualMedia' | 'attachVirtualMedia' | 'detachVirtualMedia'>>;
      const withVmedia = () => make() as WithVmedia;
      const cdOf = async (m: WithVmedia, task: ReturnType<typeof sampleTask>) =>
        (await m.getVirtualMedia(task)).find((d) => d.media_types.includes('CD') || d.media_types.includes('DVD'));
      const isoUrl = () => opts.mediaUrl?.() ?? 'http://127.0.0.1:8080/conformance.iso';

      /** Runs `body` on a node whose virtual media are detached before and after it. */
      const withEmptyMedia = async (body: (m: WithVmedia, task: ReturnType<typeof sampleTask>, iso: string) => Promise<void>) => {
        const m = withVmedia();
        const task = sampleTask(opts.nodeFields);
        await m.detachVirtualMedia(task);
        try {
          await body(m, task, isoUrl());
        } finally {
          await m.detachVirtualMedia(task);
        }
      };

      it('attaches a CD image (twice is fine), keeps it through a floppy detach and detaches it', () =>
        withEmptyMedia(async (m, task, iso) => {
          await m.attachVirtualMedia(task, 'cdrom', iso);
          await m.attachVirtualMedia(task, 'cdrom', iso);
          if (opts.remembers) expect(await cdOf(m, task)).toMatchObject({ inserted: true, image: iso });
          await m.detachVirtualMedia(task, ['floppy']);
          if (opts.remembers) expect(await cdOf(m, task)).toMatchObject({ inserted: true, image: iso });
          await m.detachVirtualMedia(task, ['cdrom']);
          if (opts.remembers) expect((await cdOf(m, task))?.inserted).toBe(false);
        }));

      it('does not take over a device holding another image (InvalidParameterValue)', () =>
        withEmptyMedia(async (m, task, iso) => {
          await m.attachVirtualMedia(task, 'cdrom', iso);
          await expect(m.attachVirtualMedia(task, 'cdrom', 'http://127.0.0.1:8080/other.iso')).rejects.toMatchObject({ code: 'InvalidParameterValue' });
          if (opts.remembers) expect(await cdOf(m, task)).toMatchObject({ inserted: true, image: iso });
        }));
    }

    if (opts.refusesOptional) {
      it('refuses NMI and boot modes with UnsupportedDriverExtension', async () => {
        const m = make();
        const task = sampleTask(opts.nodeFields);
        const refused = { code: 'UnsupportedDriverExtension', status: 400 };
        await expect(m.injectNmi?.(task)).rejects.toMatchObject(refused);
        await expect(m.getSupportedBootModes?.(task)).rejects.toMatchObject(refused);
        await expect(m.getBootMode?.(task)).rejects.toMatchObject(refused);
        await expect(m.setBootMode?.(task, 'uefi')).rejects.toMatchObject(refused);
      });
      return;
    }

    if (opts.injectsNmi) {
      it('injects an NMI', async () => {
        const m = make();
        expect(typeof m.injectNmi).toBe('function');
        await m.injectNmi?.(sampleTask(opts.nodeFields));
      });
    }

    // Which optional methods the implementation has decides which cases apply (a missing one is unsupported).
    const probe = make();
    if (!probe.getSupportedBootModes || !probe.getBootMode || !probe.setBootMode) return;
    const withModes = () => make() as Required<Pick<ManagementInterface, 'getSupportedBootModes' | 'getBootMode' | 'setBootMode'>>;

    it('sets every supported boot mode (and reads it back when it remembers)', async () => {
      const m = withModes();
      const task = sampleTask(opts.nodeFields);
      const supported = await m.getSupportedBootModes(task);
      expect(supported.length).toBeGreaterThan(0);
      for (const mode of supported) expect(BOOT_MODES).toContain(mode);
      const before = await m.getBootMode(task);
      try {
        for (const mode of supported) {
          await m.setBootMode(task, mode);
          if (opts.remembers) expect(await m.getBootMode(task)).toBe(mode);
        }
      } finally {
        if (before !== null) await m.setBootMode(task, before);
      }
    });

    it('rejects a boot mode it does not know or support', async () => {
      const m = withModes();
      const task = sampleTask(opts.nodeFields);
      await expect(m.setBootMode(task, 'efi' as BootMode)).rejects.toMatchObject({ code: 'InvalidParameterValue' });
      const supported = await m.getSupportedBootModes(task);
      const other = BOOT_MODES.find((mode) => !supported.includes(mode));
      if (other) await expect(m.setBootMode(task, other)).rejects.toMatchObject({ code: 'InvalidParameterValue' });
    });
  });
}
