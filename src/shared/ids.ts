import { randomUUID } from 'node:crypto';

const UUID_RE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** A new random UUID (v4), lower-case with dashes, as Ironic prints them. */
export function newUuid(): string {
  return randomUUID();
}

/** True when `value` looks like a UUID (with or without dashes). */
export function isUuid(value: string): boolean {
  return UUID_RE.test(value);
}

/** Normalises a UUID to lower case with dashes. */
export function normalizeUuid(value: string): string {
  const hex = value.replace(/-/g, '').toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
