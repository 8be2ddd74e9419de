/** `ingot lab up|status|down`: a lab of QEMU VMs network-booting from a real Ingot inside a network namespace. */
export { DEFAULT_LAB_DISK_GIB, labUp, LAB_KERNEL_APPEND_PARAMS, LAB_KERNEL_PACKAGE, type Lab, type LabLog, type LabUpOptions } from './lab-up.js';
export { labDown, type LabDownOptions, type LabDownReport } from './lab-down.js';
export { formatLabStatus, labStatus, type LabNodeStatus, type LabProcessStatus, type LabStatus } from './lab-status.js';
export { readLabState, type LabNode, type LabProcess, type LabState } from './lab-state.js';
export { DEFAULT_LAB_PORTS, type LabPorts } from './lab-config.js';
export { DEFAULT_NAMESPACE, LAB_NET, labPaths, type LabPaths } from './layout.js';
export { LAB_TOOLS, requireLabTools } from './host-tools.js';
export { probeAccel, type AccelProbe, type AccelProbeOptions } from './kvm-probe.js';
