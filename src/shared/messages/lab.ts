/** The error messages raised in `src/lab/` (see `index.ts` for how a message reads and is raised). */
import type { MessageTable } from './table.js';

export const LAB_MESSAGES = {
  // lab/build/build-tools.ts ({command} is the tool and its arguments; {output} is empty or a line break
  // and the end of what the tool printed)
  buildToolsMissing: { code: 'DriverOperationError', text: 'Missing build tools: {tools}. Install them with: apt-get install -y {packages}' },
  toolNotRun: { code: 'DriverOperationError', text: '{command}: {reason}{output}' },
  toolExited: { code: 'DriverOperationError', text: '{command}: exit status {status}{output}' },
  toolKilled: { code: 'DriverOperationError', text: '{command}: killed by {signal}{output}' },
  toolTimedOut: { code: 'DriverOperationError', text: '{command}: timed out after {ms} ms{output}' },
  toolAborted: { code: 'DriverOperationError', text: '{command}: aborted{output}' },

  // lab/build/debian-kernel.ts
  aptPackageUnknown: { code: 'DriverOperationError', text: 'apt-cache does not know {package}: run `apt-get update` (the host needs Debian package lists). {reason}' },
  aptPackageNoVersion: { code: 'DriverOperationError', text: 'apt-cache show {package} printed no Version: run `apt-get update` (the host needs Debian package lists)' },
  kernelMetapackageUnversioned: { code: 'DriverOperationError', text: '{package} depends on no versioned linux-image package (Depends: {depends})' },
  kernelDownloadFailed: { code: 'DriverOperationError', text: 'Downloading {package} {version} failed (run `apt-get update` (the host needs Debian package lists), and check the host reaches its Debian mirror): {reason}' },
  kernelDownloadNoDeb: { code: 'DriverOperationError', text: 'apt-get download {package}={version} left no .deb in {dir}' },
  kernelReleaseCount: { code: 'DriverOperationError', text: '{package} holds {count} kernel releases under lib/modules (expected one)' },
  kernelUnpackIncomplete: { code: 'DriverOperationError', text: 'unpacking {package} into {dir} did not complete' },

  // lab/build/kernel-modules.ts
  modulesDepCycle: { code: 'InvalidParameterValue', text: 'modules.dep has a dependency cycle: {cycle}' },
  modulesDepLineMissing: { code: 'InvalidParameterValue', text: 'modules.dep names {file} as a dependency but has no line for it' },
  kernelModulesUnknown: { code: 'InvalidParameterValue', text: 'The kernel has no module {modules} (neither in modules.dep nor built in)' },

  // lab/build/rootfs.ts
  lddLibraryNotFound: { code: 'DriverOperationError', text: 'ldd: {library} not found' },

  // lab/ramdisk/build-ramdisk.ts
  ramdiskCompressionUnknown: { code: 'InvalidParameterValue', text: 'compression: "{compression}" is not one of {choices}' },
  agentBundleMissing: { code: 'InvalidParameterValue', text: 'The agent bundle {file} does not exist (build it with `node scripts/bundle-agent.mjs`)' },
  nodeBinaryMissing: { code: 'InvalidParameterValue', text: 'The Node binary {file} does not exist' },

  // lab/test-image/build-test-image.ts
  testImageSizeInvalid: { code: 'InvalidParameterValue', text: 'sizeMib: {size} is not a whole number of MiB ≥ {min}' },
  testImageTooSmall: { code: 'InvalidParameterValue', text: 'sizeMib: {size} MiB is too small for the kernel and initramfs ({payload} MiB)' },
  testImageKernelMissing: { code: 'MissingParameterValue', text: 'buildTestImage needs a kernel or a cacheDir to fetch Debian’s kernel into' },

  // lab/qemu-lab/host-tools.ts, kvm-probe.ts
  labCannotRun: { code: 'DriverOperationError', text: 'The lab cannot run here:\n  {problems}' },
  labNeedsRoot: { code: 'DriverOperationError', text: 'a lab creates network namespaces and taps: run it as root' },
  labToolMissing: { code: 'DriverOperationError', text: '{tool} is not installed: {hint}' },
  ipNotRun: { code: 'DriverOperationError', text: 'ip {args}: {reason}' },
  ipFailed: { code: 'DriverOperationError', text: 'ip {args} failed: {reason}' },

  // lab/qemu-lab/layout.ts
  labNamespaceInvalid: { code: 'InvalidParameterValue', text: 'The lab namespace must be named ingot-lab followed by up to 40 letters, digits, ".", "_" or "-", not "{name}".' },

  // lab/qemu-lab/lab-state.ts, lab-status.ts
  labStateNotJson: { code: 'InvalidParameterValue', text: '{file} is not valid JSON ({reason}); remove the lab with ingot lab down --force.' },
  labStateForeign: { code: 'InvalidParameterValue', text: '{file} is not a lab state file written by ingot lab up; remove the lab with ingot lab down --force.' },
  labNotFound: { code: 'InvalidParameterValue', text: 'No lab in {dir} ({state} is missing): start one with ingot lab up.' },

  // lab/qemu-lab/lab-network.ts, lab-down.ts
  labNamespaceExists: { code: 'InvalidState', text: 'The network namespace {namespace} exists already (a lab is up, or a crashed one was left): run ingot lab down first.' },
  labHostLinkExists: { code: 'InvalidState', text: 'The host interface {link} exists already (left by an earlier lab): run ingot lab down first.' },
  labUplinkTaken: { code: 'InvalidState', text: '{address} is on the host interface {link} already: another lab is up (one lab per host); run ingot lab down for it first.' },
  labOrphanRetriesNotSet: { code: 'DriverOperationError', text: 'cannot set net.ipv4.tcp_orphan_retries in {namespace}: {reason}' },
  labNamespaceUnrecorded: { code: 'InvalidState', text: 'The namespace {namespace} exists but {state} does not record it: remove it with ingot lab down --force (its Ingot, QEMU and dnsmasq processes are stopped).' },

  // lab/qemu-lab/lab-up.ts (the machine count also layout.ts)
  labMachineCountInvalid: { code: 'InvalidParameterValue', text: 'A lab has 1 to {max} machines, not {machines}.' },
  labRedfishShareInvalid: { code: 'InvalidParameterValue', text: 'The Redfish share must be between 0 and 1, not {share}.' },
  labIngotCommandMissing: { code: 'MissingParameterValue', text: 'labUp needs the command that runs Ingot (ingot).' },
  labDeployFileMissing: { code: 'InvalidParameterValue', text: 'The deploy {part} {file} is not a file.' },
  labDirInUse: { code: 'InvalidState', text: '{dir} holds a lab already ({entries}): run ingot lab down first.' },
  labSpawnFailed: { code: 'DriverOperationError', text: 'cannot start {command} in {namespace}: {reason}' },
  labBmcStopped: { code: 'DriverOperationError', text: 'ingot bmc stopped before its emulators listened: {reason}' },
  labBmcNoInventory: { code: 'DriverOperationError', text: 'ingot bmc wrote no inventory to {file} within {seconds} s.' },
  labBmcMachineMissing: { code: 'DriverOperationError', text: 'ingot bmc\'s inventory has no machine {machine}: see {log}' },

  // lab/qemu-lab/lab-api.ts
  labApiUnreachable: { code: 'DriverOperationError', text: '{method} {url}: {reason}' },
  labApiRefused: { code: 'DriverOperationError', text: '{method} {path}: HTTP {status} {body}' },
  labServeStopped: { code: 'DriverOperationError', text: 'ingot serve stopped before its API answered: {reason}' },
  labApiSilent: { code: 'DriverOperationError', text: 'The Ingot API at {url} did not answer within {seconds} s ({last}).' },
  labNodeFailed: { code: 'DriverOperationError', text: 'node {node} ended in {state}: {error}' },
  labNodeUnsettled: { code: 'DriverOperationError', text: 'node {node} did not settle within {seconds} s: {state}, power {power}, last error {error}' },
} as const satisfies MessageTable;
