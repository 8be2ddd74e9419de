/** The error messages raised in `src/bmc/` (see `index.ts` for how a message reads and is raised). */
import type { MessageTable } from './table.js';

export const BMC_MESSAGES = {
  // bmc/fleet-spec.ts ({machine} is "<source>: machine <i>", with the entry's name when it has one)
  machinesNotArray: { code: 'InvalidParameterValue', text: '{source}: expected a JSON array of machines.' },
  machineBackendUnknown: { code: 'InvalidParameterValue', text: '{machine}: "backend" must be "simulated" or "qemu".' },
  machineFieldInvalid: { code: 'InvalidParameterValue', text: '{machine}: {field} {problem}.' },
  machineNameTwice: { code: 'InvalidParameterValue', text: '{machine}: the name "{name}" is used twice.' },

  // bmc/ipxe-script-parse.ts
  ipxeNotScript: { code: 'InvalidParameterValue', text: '{script} is not an iPXE script (it does not start with #!ipxe).' },
  ipxeImageOptionUnknown: { code: 'InvalidParameterValue', text: 'iPXE script line {line}: unknown image option {option}.' },
  ipxeImageUrlMissing: { code: 'InvalidParameterValue', text: 'iPXE script line {line}: the image URL is missing.' },
  ipxeUrlUsesSettings: { code: 'InvalidParameterValue', text: 'iPXE script line {line}: {url} uses iPXE settings, which are not expanded here.' },
  ipxeUrlInvalid: { code: 'InvalidParameterValue', text: 'iPXE script line {line}: {url} is not a URL.' },
  ipxeGotoNoLabel: { code: 'InvalidParameterValue', text: '{script} line {line}: goto {label} names no label.' },
  ipxeLeavesScript: { code: 'InvalidParameterValue', text: '{script} line {line}: {command} boots no kernel of this script (not followed here).' },
  ipxeLoops: { code: 'InvalidParameterValue', text: '{script}: the script loops without booting.' },
  ipxeNoKernel: { code: 'InvalidParameterValue', text: '{script} loads no kernel.' },

  // bmc/qemu/qmp.ts ({step} is a QMP command or "greeting")
  qmpCommandFailed: { code: 'DriverOperationError', text: 'QMP {command} failed: {qmpClass}: {desc}' },
  qmpTimedOut: { code: 'DriverOperationError', text: 'QMP {step} timed out' },
  qmpAborted: { code: 'DriverOperationError', text: 'QMP {step} was aborted' },
  qmpConnectTimedOut: { code: 'DriverOperationError', text: 'QMP connect to {path} timed out' },
  qmpConnectAborted: { code: 'DriverOperationError', text: 'QMP connect to {path} was aborted' },
  qmpConnectFailed: { code: 'DriverOperationError', text: 'QMP connect to {path} failed: {reason}' },
  qmpClosed: { code: 'DriverOperationError', text: 'QMP connection closed' },
  qmpClosedBeforeGreeting: { code: 'DriverOperationError', text: 'QMP connection closed before the greeting' },
  qmpClosedBeforeReply: { code: 'DriverOperationError', text: 'QMP {command}: connection closed before the reply' },
  qmpCommandAfterClose: { code: 'DriverOperationError', text: 'QMP {command}: connection closed' },

  // bmc/qemu/spec.ts
  qemuNameInvalid: { code: 'InvalidParameterValue', text: 'QEMU machine {machine}: name must be letters, digits, ".", "_" or "-"' },
  qemuDiskSizeInvalid: { code: 'InvalidParameterValue', text: 'QEMU machine {machine}: disk.sizeBytes must be a positive integer' },
  qemuMemoryInvalid: { code: 'InvalidParameterValue', text: 'QEMU machine {machine}: memoryMiB must be an integer of at least 16' },
  qemuCpusInvalid: { code: 'InvalidParameterValue', text: 'QEMU machine {machine}: cpus must be a positive integer' },
  qemuMacInvalid: { code: 'InvalidParameterValue', text: 'QEMU machine {machine}: invalid MAC {mac}' },
  qemuTapInvalid: { code: 'InvalidParameterValue', text: 'QEMU machine {machine}: invalid tap name {tap}' },
  qemuUuidInvalid: { code: 'InvalidParameterValue', text: 'QEMU machine {machine}: invalid UUID {uuid}' },
  qemuOvmfMissing: { code: 'InvalidParameterValue', text: 'QEMU machine {machine}: UEFI boot needs OVMF firmware ({firmware} not found); apt-get install ovmf, or use bootMode "bios"' },

  // bmc/qemu/process.ts
  qemuBinaryNotFound: { code: 'DriverOperationError', text: 'QEMU binary "{binary}" not found (apt-get install qemu-system-x86 qemu-utils)' },
  qemuBinaryNotStarted: { code: 'DriverOperationError', text: 'QEMU binary "{binary}" could not be started: {reason} (apt-get install qemu-system-x86 qemu-utils)' },
  qemuExitedWhileStarting: { code: 'DriverOperationError', text: 'QEMU exited (code {code}, signal {signal}) while starting; last lines of {log}:\n{tail}' },
  qemuNoQmpWhileStarting: { code: 'DriverOperationError', text: 'QEMU did not answer on QMP ({reason}); killed while starting; last lines of {log}:\n{tail}' },

  // bmc/qemu/machine.ts
  qemuMachineClosed: { code: 'PowerStateFailure', text: 'QEMU machine {machine} is closed' },
  qemuClosedWhileStarting: { code: 'DriverOperationError', text: 'QEMU machine {machine} was closed while starting' },
  qemuNotRunning: { code: 'PowerStateFailure', text: 'QEMU machine {machine} has no running QEMU' },
} as const satisfies MessageTable;
