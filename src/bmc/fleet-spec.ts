/**
 * The machines `ingot bmc` emulates, as declared in a machines file (`--machines FILE`, a JSON array)
 * and/or by `--simulate N`. Validated once, with errors naming the machine and the field.
 */
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { fail } from '../shared/errors.js';

const Faults = Type.Object(
  {
    latency_ms: Type.Optional(Type.Number({ minimum: 0, description: 'Added to every BMC answer.' })),
    drop_rate: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'Share of IPMI packets dropped.' })),
    error_rate: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'Share of Redfish requests answered 500.' })),
    hang_power: Type.Optional(Type.Boolean({ description: 'Power actions are accepted and never happen.' })),
    reject_credentials: Type.Optional(Type.Boolean({ description: 'Every login fails.' })),
    agent_error: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Null()], { description: 'Simulated: the agent reports this ramdisk error.' })),
    agent_missing: Type.Optional(Type.Boolean({ description: 'Simulated: a network boot starts no agent.' })),
    agent_stall: Type.Optional(Type.Boolean({ description: 'Simulated: the deploy agent stops heartbeating (and answering) about 2 s after its first heartbeat.' })),
  },
  { additionalProperties: false },
);

const Common = {
  name: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$', description: 'Unique machine name; also its Redfish system id.' }),
  username: Type.Optional(Type.String({ minLength: 1 })),
  password: Type.Optional(Type.String({ minLength: 1 })),
  faults: Type.Optional(Faults),
};

export const SimulatedSpec = Type.Object(
  {
    ...Common,
    backend: Type.Literal('simulated'),
    /** Index of the generated hardware profile (varies CPUs, memory, disks, NICs); defaults to the position in the fleet. */
    profile_index: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);

export const QemuSpec = Type.Object(
  {
    ...Common,
    backend: Type.Literal('qemu'),
    memory_mib: Type.Optional(Type.Integer({ minimum: 128 })),
    cpus: Type.Optional(Type.Integer({ minimum: 1 })),
    disk_gib: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    nics: Type.Optional(Type.Array(Type.Object({ mac: Type.String({ pattern: '^([0-9a-fA-F]{2}:){5}[0-9a-fA-F]{2}$' }), tap: Type.Optional(Type.String()) }, { additionalProperties: false }))),
    boot_mode: Type.Optional(Type.Union([Type.Literal('bios'), Type.Literal('uefi')])),
    accel: Type.Optional(Type.Union([Type.Literal('tcg'), Type.Literal('kvm')])),
    extra_args: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: false },
);

export const MachineSpec = Type.Union([SimulatedSpec, QemuSpec]);
export type SimulatedSpec = Static<typeof SimulatedSpec>;
export type QemuSpec = Static<typeof QemuSpec>;
export type MachineSpec = Static<typeof MachineSpec>;

/** Validates a machines file's content; throws InvalidParameterValue naming the entry and the field. */
export function parseMachineSpecs(doc: unknown, source = 'machines file'): MachineSpec[] {
  if (!Array.isArray(doc)) throw fail('machinesNotArray', { source });
  const names = new Set<string>();
  return doc.map((entry, i) => {
    const label = `${source}: machine ${i}${entry && typeof entry === 'object' && 'name' in entry ? ` (${String((entry as { name: unknown }).name)})` : ''}`;
    const backend = entry && typeof entry === 'object' ? (entry as { backend?: unknown }).backend : undefined;
    const schema = backend === 'qemu' ? QemuSpec : backend === 'simulated' ? SimulatedSpec : null;
    if (!schema) throw fail('machineBackendUnknown', { machine: label });
    const first = Value.Errors(schema, entry)[0];
    if (first) throw fail('machineFieldInvalid', { machine: label, field: first.instancePath || '/', problem: first.message });
    const spec = entry as MachineSpec;
    if (names.has(spec.name)) throw fail('machineNameTwice', { machine: label, name: spec.name });
    names.add(spec.name);
    return spec;
  });
}

/** `count` simulated machines named `<prefix>-<i>`. */
export function simulatedSpecs(count: number, prefix = 'sim'): SimulatedSpec[] {
  return Array.from({ length: count }, (_, i) => ({ name: `${prefix}-${i}`, backend: 'simulated' as const, profile_index: i }));
}
