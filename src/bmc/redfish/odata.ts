/**
 * OData annotations every Redfish resource carries (DSP0266 §8 "Data model"): `@odata.id` (its URI),
 * `@odata.type` (`#Namespace.vX_Y_Z.Type`) and `@odata.context` (`/redfish/v1/$metadata#Type.Type`).
 */
import { createHash } from 'node:crypto';

export const V1 = '/redfish/v1';

/** `{"@odata.id": uri}`, the form of every link between resources. */
export function ref(uri: string): { '@odata.id': string } {
  return { '@odata.id': uri };
}

/** The three annotations of a resource of `type` at `uri`. */
export function odata(uri: string, type: string): Record<string, string> {
  // '#ComputerSystem.v1_10_0.ComputerSystem' -> 'ComputerSystem'; collections have no version part.
  const name = type.replace(/^#/, '').split('.')[0] ?? type;
  return { '@odata.id': uri, '@odata.type': type, '@odata.context': `${V1}/$metadata#${name}.${name}` };
}

/** A resource collection with its members' links. */
export function collection(uri: string, name: string, type: string, members: string[]): Record<string, unknown> {
  return {
    ...odata(uri, `#${type}.${type}`),
    Name: name,
    'Members@odata.count': members.length,
    Members: members.map(ref),
  };
}

/** A URI path segment for an id (machine names may hold characters a URI cannot). */
export function seg(id: string): string {
  return encodeURIComponent(id);
}

/** A strong ETag over a resource's representation: it changes whenever the representation does. */
export function etagOf(body: unknown): string {
  return `"${createHash('sha1').update(JSON.stringify(body)).digest('hex').slice(0, 20)}"`;
}

/** A UUID derived from `seed` (stable across runs), for resources the machine profile has none for. */
export function derivedUuid(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
