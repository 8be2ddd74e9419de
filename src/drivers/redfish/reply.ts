/** What the Redfish client returns. */
import type { IncomingHttpHeaders } from 'node:http';

/** A JSON object as Redfish resources are. */
export type RedfishResource = Record<string, unknown>;

/** A completed Redfish exchange. */
export interface RedfishReply {
  status: number;
  body: RedfishResource | null;
  /** The `ETag` header, or the body's `@odata.etag`. */
  etag: string | null;
  headers: IncomingHttpHeaders;
  /** The raw body text (for error messages of non-JSON answers). */
  text: string;
}
