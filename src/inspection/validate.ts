/**
 * Validation of what the agent posts to the inspection callback. The body is untrusted JSON: it is checked
 * against the payload schema (`protocol/agent/inventory.ts` `InspectionPayloadBody`, with bounds on every
 * list and number), and
 * the first problem is reported with its JSON path, e.g.
 * `inventory.interfaces[2].mac_address: "zz" is not a MAC address`. The result is a new, typed payload
 * with MAC addresses in lower case; the input is not modified.
 *
 * The schema accepts what real ironic-python-agent releases send (optional and null fields, extra keys)
 * so that a stock IPA ramdisk and Ingot's agent both pass.
 */
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { InspectionPayloadBody, type InspectionPayload } from '../protocol/agent/inventory.js';
import { errorMessage, IngotError, type ErrorCode, type FailArgs, type MessageId, type MessageValues } from '../shared/errors.js';
import type { MessageText } from '../shared/messages/index.js';
import { HARDWARE_ADDRESS, macFromBootif, parseMac } from '../shared/mac.js';

/** The payload failed validation; `path` is the JSON path of the first problem (`''` for the root). */
export class InspectionDataError extends IngotError {
  readonly path: string;

  /** Use {@link inspectionDataError}, which renders the message. */
  constructor(path: string, rendered: { code: ErrorCode; message: string }) {
    super(rendered.code, rendered.message);
    this.path = path;
  }
}

/** The values of message `M` but its `{path}`, which {@link inspectionDataError} fills in. */
type ValuesButPath<M extends MessageId> = Omit<MessageValues<MessageText<M>>, 'path'>;

/** The error of problem message `id` (messages/inspection.ts) at `path`, named in the message as `{path}` (`(body)` for the root). */
export function inspectionDataError<M extends MessageId>(path: string, id: M, values: ValuesButPath<M>): InspectionDataError {
  const args = [{ ...values, path: path || '(body)' }] as unknown as FailArgs<M>;
  return new InspectionDataError(path, errorMessage(id, ...args));
}

/** `/inventory/interfaces/2/mac_address` -> `inventory.interfaces[2].mac_address`. */
export function jsonPath(pointer: string): string {
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(key)) out += `[${key}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(key)) out += out ? `.${key}` : key;
    else out += `[${JSON.stringify(key)}]`;
  }
  return out;
}

function at(value: unknown, pointer: string): unknown {
  return pointer.split('/').slice(1).reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], value);
}

/** A short rendering of an offending value for messages. */
function show(value: unknown): string {
  if (value === undefined) return 'missing';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function schemaError(schema: TSchema, body: unknown): InspectionDataError {
  const errors = [...Value.Errors(schema, body)];
  // A list over its bound is reported as such, not by the first bad item inside it.
  const chosen = errors.find((e) => e.keyword === 'maxItems') ?? errors.find((e) => e.keyword !== 'anyOf') ?? errors[0];
  if (!chosen) return inspectionDataError('', 'inspectionDataNotPayload', {});
  if (chosen.keyword === 'required') {
    const missing = (chosen.params as { requiredProperties?: string[] }).requiredProperties ?? [];
    const first = missing.find((k) => (at(body, chosen.instancePath) as Record<string, unknown> | null)?.[k] === undefined) ?? missing[0] ?? '?';
    return inspectionDataError(jsonPath(`${chosen.instancePath}/${first}`), 'inspectionDataMissing', {});
  }
  const value = at(body, chosen.instancePath);
  if (chosen.keyword === 'maxItems' && Array.isArray(value)) {
    return inspectionDataError(jsonPath(chosen.instancePath), 'inspectionDataTooLong', { count: value.length, limit: String((chosen.params as { limit?: number }).limit) });
  }
  return inspectionDataError(jsonPath(chosen.instancePath), 'inspectionDataInvalid', { value: show(value), problem: chosen.message });
}

/**
 * Validates a posted inspection payload and returns it typed, with MAC addresses normalised to lower
 * case (interfaces, `bmc_mac`) and the boot NIC (`boot.pxe_interface`, `boot_interface`) as a plain
 * lower-case MAC even when the agent sent pxelinux form (`01-aa-bb-…`). LLDP TLV values are only
 * bounded here; a value that is not hex is skipped with a warning by the LLDP hooks, as Ironic does.
 * @throws InspectionDataError (code InvalidParameterValue) naming the JSON path of the first problem.
 */
export function validateInspectionPayload(body: unknown): InspectionPayload {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw inspectionDataError('', 'inspectionDataNotObject', { value: Array.isArray(body) ? 'an array' : show(body) });
  }
  if (!Value.Check(InspectionPayloadBody, body)) throw schemaError(InspectionPayloadBody, body);

  const payload = structuredClone(body) as unknown as InspectionPayload;
  const seen = new Map<string, number>();
  payload.inventory.interfaces.forEach((iface, i) => {
    const where = `inventory.interfaces[${i}]`;
    const mac = parseMac(iface.mac_address, HARDWARE_ADDRESS);
    if (mac === null) throw inspectionDataError(`${where}.mac_address`, 'inspectionDataMacInvalid', { value: show(iface.mac_address) });
    iface.mac_address = mac;
    const dup = seen.get(iface.name);
    if (dup !== undefined) throw inspectionDataError(`${where}.name`, 'inspectionDataNameTaken', { value: show(iface.name), index: dup });
    seen.set(iface.name, i);
  });
  const boot = payload.inventory.boot;
  if (boot?.pxe_interface) {
    const mac = macFromBootif(boot.pxe_interface);
    if (mac === null) throw inspectionDataError('inventory.boot.pxe_interface', 'inspectionDataMacInvalid', { value: show(boot.pxe_interface) });
    boot.pxe_interface = mac;
  }
  if (payload.boot_interface) {
    const mac = macFromBootif(payload.boot_interface);
    if (mac === null) throw inspectionDataError('boot_interface', 'inspectionDataMacInvalid', { value: show(payload.boot_interface) });
    payload.boot_interface = mac;
  }
  if (payload.inventory.bmc_mac) {
    const mac = parseMac(payload.inventory.bmc_mac, HARDWARE_ADDRESS);
    if (mac === null) throw inspectionDataError('inventory.bmc_mac', 'inspectionDataMacInvalid', { value: show(payload.inventory.bmc_mac) });
    payload.inventory.bmc_mac = mac;
  }
  return payload;
}
