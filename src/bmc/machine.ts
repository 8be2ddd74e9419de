/**
 * The machine behind an emulated BMC. The Redfish and IPMI emulators translate their protocol into
 * these calls; a back-end (simulated in memory, or a QEMU process) carries them out. Fault injection
 * lives here too, so both protocols misbehave the same way for one machine.
 */
import type { HardwareProfile } from '../protocol/hardware/profile.js';

export type MachinePower = 'on' | 'off';

/** What a BMC can ask of a machine's power. `soft-off` is an ACPI power-button press, `nmi` a diagnostic interrupt. */
export type MachinePowerAction = 'on' | 'off' | 'soft-off' | 'reset' | 'cycle' | 'nmi';

/** Where the machine boots from next. `none` means its own boot order (the disk). */
export type MachineBootDevice = 'none' | 'pxe' | 'disk' | 'cdrom' | 'bios';

export interface BootOverride {
  device: MachineBootDevice;
  /** `once` is consumed by the next boot; `continuous` stays. Ignored when device is `none`. */
  persistence: 'once' | 'continuous';
  mode: 'uefi' | 'legacy';
}

export interface VirtualMediaState {
  /** Image URL, or null when nothing is inserted. */
  image: string | null;
  inserted: boolean;
  write_protected: boolean;
}

/** Fault injection: what a machine's BMC does wrong, on purpose. All off by default. */
export interface MachineFaults {
  /** Added to every BMC answer, in milliseconds. */
  latency_ms: number;
  /** Share of IPMI UDP packets silently dropped (0..1). */
  drop_rate: number;
  /** Share of Redfish requests answered with HTTP 500 (0..1). */
  error_rate: number;
  /** Power actions are accepted but the machine never changes state. */
  hang_power: boolean;
  /** The BMC rejects every login, also with the right credentials. */
  reject_credentials: boolean;
  /** Simulated machines: the agent booted from the network reports this ramdisk error instead of its inventory. */
  agent_error: string | null;
  /** Simulated machines: a network boot starts no agent (the machine never calls back). */
  agent_missing: boolean;
  /**
   * Simulated machines: the deploy agent looks its node up and heartbeats, then dies about 2 s after its
   * first successful heartbeat (no more heartbeats, its API stops answering).
   */
  agent_stall: boolean;
}

export const NO_FAULTS: Readonly<MachineFaults> = Object.freeze({
  latency_ms: 0, drop_rate: 0, error_rate: 0, hang_power: false, reject_credentials: false, agent_error: null, agent_missing: false, agent_stall: false,
});

/** Emitted when a machine starts booting (power on, reset, cycle): which device it boots from. */
export interface BootEvent {
  machine: Machine;
  device: Exclude<MachineBootDevice, 'none'>;
}

/** One emulated machine, as the BMC emulators see it. */
export interface Machine {
  /** Unique name in the fleet (e.g. `sim-0`); also the Redfish system id. */
  readonly name: string;
  /** What carries out its actions: memory (`simulated`, whose agent is simulated too) or a QEMU VM. */
  readonly backend: 'simulated' | 'qemu';
  readonly profile: HardwareProfile;
  /** BMC credentials of this machine. */
  readonly username: string;
  readonly password: string;
  /** Mutable: tests and the `ingot bmc` control endpoint change faults at run time. */
  faults: MachineFaults;
  power(): Promise<MachinePower>;
  /** Carries out a power action; with `hang_power` it is accepted and nothing happens. */
  act(action: MachinePowerAction): Promise<void>;
  bootOverride(): BootOverride;
  setBootOverride(change: Partial<BootOverride>): void;
  virtualMedia(): VirtualMediaState;
  insertMedia(image: string, writeProtected?: boolean): void;
  ejectMedia(): void;
  /** Calls `listener` at every boot; returns a function that removes it. */
  onBoot(listener: (event: BootEvent) => void): () => void;
  /**
   * Calls `listener` each time the machine goes from on to off (a BMC power off, or the guest powering
   * itself off); a reset or cycle is a boot, not a power off. Returns a function that removes it.
   */
  onPowerOff(listener: (machine: Machine) => void): () => void;
  /** Stops the machine's back-end (ends a QEMU process); idempotent. */
  close(): Promise<void>;
}
