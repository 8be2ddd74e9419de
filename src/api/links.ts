/**
 * Links as Ironic builds them (`ironic/api/controllers/link.py`): `self` points under `/v1`, `bookmark`
 * at the unversioned path. The base URL is `api.public_url` or the URL the client used.
 */
import type { FastifyRequest } from 'fastify';

export interface Link {
  href: string;
  rel: string;
  type?: string;
}

/** The base URL for links in the response to `request`. */
export function baseUrl(request: FastifyRequest, publicUrl: string): string {
  if (publicUrl) return publicUrl.replace(/\/+$/, '');
  return `${request.protocol}://${request.host}`;
}

/** `{base}/v1/{resource}/{args}` (or `{base}/{resource}/{args}` for a bookmark). */
export function buildUrl(base: string, resource: string, args: string, bookmark = false): string {
  const root = bookmark ? `${base}/${resource}` : `${base}/v1/${resource}`;
  return args.startsWith('?') ? root + args : `${root}/${args}`;
}

/** The `self` + `bookmark` pair for `resource/args`. */
export function selfLinks(base: string, resource: string, args: string): Link[] {
  return [
    { href: buildUrl(base, resource, args), rel: 'self' },
    { href: buildUrl(base, resource, args, true), rel: 'bookmark' },
  ];
}
