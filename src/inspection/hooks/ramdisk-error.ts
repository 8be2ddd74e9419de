import type { InspectionHook } from './types.js';

/**
 * `ramdisk-error`: fails inspection when the agent reported an error (Ironic's RamdiskErrorHook). Runs in
 * the preprocess phase so nothing else is applied. Collector errors do not fail inspection (the rest of
 * the data arrived); they become warnings.
 */
export const ramdiskErrorHook: InspectionHook = {
  name: 'ramdisk-error',
  preprocess({ payload }) {
    if (payload.error) return { failure: `Ramdisk reported error: ${payload.error}` };
    const collectorErrors = Object.entries(payload.collector_errors ?? {});
    return { notes: collectorErrors.map(([collector, message]) => ({ level: 'warning' as const, message: `collector ${collector} failed: ${message}` })) };
  },
};
