/** Boot bookkeeping shared by every machine back-end: the override a boot consumes, and the boot listeners. */
import type { BootEvent, BootOverride, Machine, MachineBootDevice } from './machine.js';

export class BootState {
  override: BootOverride = { device: 'none', persistence: 'once', mode: 'uefi' };
  private readonly listeners = new Set<(event: BootEvent) => void>();

  constructor(mode: BootOverride['mode']) {
    this.override.mode = mode;
  }

  set(change: Partial<BootOverride>): void {
    this.override = { ...this.override, ...change };
  }

  /** The device the next boot uses; a one-time override is consumed. */
  take(): Exclude<MachineBootDevice, 'none'> {
    const { device, persistence } = this.override;
    if (device === 'none') return 'disk';
    if (persistence === 'once') this.override = { ...this.override, device: 'none' };
    return device;
  }

  listen(listener: (event: BootEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Consumes the override and tells every listener that `machine` boots. */
  boot(machine: Machine): Exclude<MachineBootDevice, 'none'> {
    const device = this.take();
    for (const listener of this.listeners) listener({ machine, device });
    return device;
  }
}
