/**
 * System boot options (IPMI v2.0 §28.12, §28.13) of one emulated BMC. Parameter 5 (boot flags) reads and
 * writes the machine's boot override; the parameters tools write around it (0 set-in-progress,
 * 3 valid-bit clearing, 4 boot info acknowledge) are kept here so they read back what was written.
 */
import { BOOT_DEVICE, BOOT_PARAM, decodeBootFlags, encodeBootFlags, type SetBootOptionRequest } from '../../protocol/ipmi/commands-chassis.js';
import { COMPLETION } from '../../protocol/ipmi/commands.js';
import type { Machine, MachineBootDevice } from '../machine.js';

/** The boot option parameters that are plain stored bytes, with their lengths and defaults. */
interface StoredParams {
  setInProgress: number;
  servicePartitionSelector: number;
  servicePartitionScan: number;
  validBitClearing: number;
  /** Parameter 4: the acknowledge bits (byte 2 of its data). */
  bootInfoAck: number;
  /** Bytes 3..5 of the last boot flags written (BIOS verbosity, lockouts…), echoed back. */
  flagExtras: Buffer;
  /** Byte 2 bits outside the device selector (CMOS clear, keyboard lock, screen blank, reset lockout). */
  flagByte2Extras: number;
}

/** Outcome of a boot option command: a completion code and, for Get, the parameter data. */
export interface BootOptionResult {
  completionCode: number;
  data?: Buffer;
}

const DEVICE_TO_SELECTOR: Record<MachineBootDevice, number> = {
  none: BOOT_DEVICE.NONE,
  pxe: BOOT_DEVICE.PXE,
  disk: BOOT_DEVICE.DISK,
  cdrom: BOOT_DEVICE.CDROM,
  bios: BOOT_DEVICE.BIOS_SETUP,
};

const SELECTOR_TO_DEVICE: Record<number, MachineBootDevice> = {
  [BOOT_DEVICE.NONE]: 'none',
  [BOOT_DEVICE.PXE]: 'pxe',
  [BOOT_DEVICE.DISK]: 'disk',
  [BOOT_DEVICE.DISK_SAFE]: 'disk',
  [BOOT_DEVICE.REMOTE_DISK]: 'disk',
  [BOOT_DEVICE.CDROM]: 'cdrom',
  [BOOT_DEVICE.REMOTE_CDROM]: 'cdrom',
  [BOOT_DEVICE.BIOS_SETUP]: 'bios',
};

/** Boot option state of one machine's BMC. */
export class BootOptions {
  private readonly stored: StoredParams = {
    setInProgress: 0,
    servicePartitionSelector: 0,
    servicePartitionScan: 0,
    validBitClearing: 0,
    bootInfoAck: 0,
    flagExtras: Buffer.alloc(3),
    flagByte2Extras: 0,
  };

  constructor(private readonly machine: Machine) {}

  /** Boot flags (parameter 5) as the machine's boot override says. */
  bootFlags(): Buffer {
    const o = this.machine.bootOverride();
    const flags = encodeBootFlags({ valid: o.device !== 'none', persistent: o.device !== 'none' && o.persistence === 'continuous', efi: o.mode === 'uefi', device: DEVICE_TO_SELECTOR[o.device] });
    flags[1] = (flags[1] as number) | this.stored.flagByte2Extras;
    this.stored.flagExtras.copy(flags, 2);
    return flags;
  }

  /** Get System Boot Options for `parameter`: its data, or 0x80 when the parameter is not supported. */
  get(parameter: number): BootOptionResult {
    const s = this.stored;
    switch (parameter) {
      case BOOT_PARAM.SET_IN_PROGRESS:
        return { completionCode: COMPLETION.OK, data: Buffer.from([s.setInProgress]) };
      case BOOT_PARAM.SERVICE_PARTITION_SELECTOR:
        return { completionCode: COMPLETION.OK, data: Buffer.from([s.servicePartitionSelector]) };
      case BOOT_PARAM.SERVICE_PARTITION_SCAN:
        return { completionCode: COMPLETION.OK, data: Buffer.from([s.servicePartitionScan]) };
      case BOOT_PARAM.BMC_BOOT_FLAG_VALID_CLEARING:
        return { completionCode: COMPLETION.OK, data: Buffer.from([s.validBitClearing]) };
      case BOOT_PARAM.BOOT_INFO_ACK:
        return { completionCode: COMPLETION.OK, data: Buffer.from([0x00, s.bootInfoAck]) };
      case BOOT_PARAM.BOOT_FLAGS:
        return { completionCode: COMPLETION.OK, data: this.bootFlags() };
      case BOOT_PARAM.BOOT_INITIATOR_INFO:
        return { completionCode: COMPLETION.OK, data: Buffer.alloc(9) };
      default:
        return { completionCode: COMPLETION.PARAMETER_NOT_SUPPORTED };
    }
  }

  /** Set System Boot Options: stores or applies the parameter; boot flags change the machine's override. */
  set(req: SetBootOptionRequest): BootOptionResult {
    const s = this.stored;
    const byte = (n: number): number | undefined => req.data[n];
    const ok = { completionCode: COMPLETION.OK };
    const short = { completionCode: COMPLETION.DATA_LENGTH_INVALID };
    switch (req.parameter) {
      case BOOT_PARAM.SET_IN_PROGRESS: {
        const v = byte(0);
        if (v === undefined) return short;
        // NOTE: 2 ("commit write") is optional in the spec; it reads back as set-complete here.
        s.setInProgress = (v & 0x03) === 1 ? 1 : 0;
        return ok;
      }
      case BOOT_PARAM.SERVICE_PARTITION_SELECTOR:
      case BOOT_PARAM.SERVICE_PARTITION_SCAN:
      case BOOT_PARAM.BMC_BOOT_FLAG_VALID_CLEARING: {
        const v = byte(0);
        if (v === undefined) return short;
        if (req.parameter === BOOT_PARAM.SERVICE_PARTITION_SELECTOR) s.servicePartitionSelector = v;
        else if (req.parameter === BOOT_PARAM.SERVICE_PARTITION_SCAN) s.servicePartitionScan = v;
        else s.validBitClearing = v & 0x1f;
        return ok;
      }
      case BOOT_PARAM.BOOT_INFO_ACK: {
        const mask = byte(0);
        const value = byte(1);
        if (mask === undefined || value === undefined) return short;
        s.bootInfoAck = (s.bootInfoAck & ~mask) | (value & mask);
        return ok;
      }
      case BOOT_PARAM.BOOT_FLAGS:
        return this.setBootFlags(req.data);
      default:
        return { completionCode: COMPLETION.PARAMETER_NOT_SUPPORTED };
    }
  }

  private setBootFlags(data: Buffer): BootOptionResult {
    if (data.length < 5) return { completionCode: COMPLETION.DATA_LENGTH_INVALID };
    const flags = decodeBootFlags(data);
    const device = flags.valid ? SELECTOR_TO_DEVICE[flags.device] : 'none';
    if (device === undefined) return { completionCode: COMPLETION.INVALID_DATA_FIELD };
    this.stored.flagByte2Extras = (data[1] as number) & 0xc3;
    data.copy(this.stored.flagExtras, 0, 2, 5);
    if (!flags.valid) {
      this.machine.setBootOverride({ device: 'none' });
      return { completionCode: COMPLETION.OK };
    }
    this.machine.setBootOverride({ device, persistence: flags.persistent ? 'continuous' : 'once', mode: flags.efi ? 'uefi' : 'legacy' });
    return { completionCode: COMPLETION.OK };
  }
}
