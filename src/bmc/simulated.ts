/**
 * The simulated back-end: power, boot override and virtual media held in memory. Power changes take
 * effect at once (or never, with the `hang_power` fault); each boot is announced to the boot listeners,
 * which is how a simulated machine "runs" the agent when it network-boots, and each power off to the
 * power-off listeners, which stop that agent.
 */
import type { HardwareProfile } from '../protocol/hardware/profile.js';
import { BootState } from './boot-events.js';
import { NO_FAULTS, type Machine, type MachineFaults, type MachinePower, type VirtualMediaState } from './machine.js';

export interface SimulatedMachineSpec {
  name: string;
  profile: HardwareProfile;
  username: string;
  password: string;
  faults?: Partial<MachineFaults>;
  power?: MachinePower;
}

export function simulatedMachine(spec: SimulatedMachineSpec): Machine {
  let power: MachinePower = spec.power ?? 'off';
  const boot = new BootState(spec.profile.boot_mode === 'uefi' ? 'uefi' : 'legacy');
  let media: VirtualMediaState = { image: null, inserted: false, write_protected: true };
  const offListeners = new Set<(machine: Machine) => void>();

  const machine: Machine = {
    name: spec.name,
    backend: 'simulated',
    profile: spec.profile,
    username: spec.username,
    password: spec.password,
    faults: { ...NO_FAULTS, ...spec.faults },
    power: async () => power,
    async act(action) {
      if (machine.faults.hang_power || action === 'nmi') return;
      if (action === 'off' || action === 'soft-off') {
        const was = power;
        power = 'off';
        if (was === 'on') for (const listener of offListeners) listener(machine);
        return;
      }
      // 'on' of a running machine changes nothing (as real BMCs); reset and cycle boot it again.
      if (action === 'on' && power === 'on') return;
      power = 'on';
      boot.boot(machine);
    },
    bootOverride: () => ({ ...boot.override }),
    setBootOverride: (change) => boot.set(change),
    virtualMedia: () => ({ ...media }),
    insertMedia(image, writeProtected = true) {
      media = { image, inserted: true, write_protected: writeProtected };
    },
    ejectMedia() {
      media = { image: null, inserted: false, write_protected: true };
    },
    onBoot: (listener) => boot.listen(listener),
    onPowerOff(listener) {
      offListeners.add(listener);
      return () => offListeners.delete(listener);
    },
    close: async () => undefined,
  };
  return machine;
}
