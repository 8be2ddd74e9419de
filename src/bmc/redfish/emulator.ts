/**
 * `startRedfishEmulator`: one HTTP(S) Redfish service that plays the BMCs of many machines, for
 * development, CI and scale tests (`ingot bmc`). TLS may be off, a fresh self-signed certificate (its PEM
 * is returned so that clients can verify against it), or a given key and certificate.
 */
import { isIP } from 'node:net';
import { buildRedfishApp, type RedfishAppOptions } from './app.js';

export interface RedfishEmulatorOptions extends Omit<RedfishAppOptions, 'https'> {
  host: string;
  /** 0 picks a free port. */
  port: number;
  tls?: false | 'self-signed' | { cert: string; key: string };
  /** Aborting it closes the emulator. */
  signal?: AbortSignal;
}

export interface RunningRedfishEmulator {
  /** Base URL, e.g. `https://127.0.0.1:8443` (no path). */
  url: string;
  port: number;
  /** The served certificate (PEM) when TLS is on. */
  certificate?: string;
  /** Stops listening and ends running tasks; idempotent. */
  close(): Promise<void>;
}

/** A self-signed certificate for `host` (also valid for localhost, 127.0.0.1 and ::1). */
export async function selfSignedCertificate(host: string): Promise<{ cert: string; key: string }> {
  const names = new Set(['localhost', host]);
  const ips = new Set(['127.0.0.1', '::1']);
  const altNames: ({ type: 2; value: string } | { type: 7; ip: string })[] = [];
  for (const n of names) if (n && !isIP(n) && n !== '0.0.0.0' && n !== '::') altNames.push({ type: 2, value: n });
  if (isIP(host) && host !== '0.0.0.0' && host !== '::') ips.add(host);
  for (const ip of ips) altNames.push({ type: 7, ip });
  // Loaded on demand: certificate generation pulls in a large X.509 library.
  const { generate } = await import('selfsigned');
  const pems = await generate([{ name: 'commonName', value: isIP(host) || !host ? 'localhost' : host }, { name: 'organizationName', value: 'Ingot Redfish emulator' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + 365 * 24 * 3600 * 1000),
    extensions: [
      // NOTE: the certificate is its own trust anchor for clients that verify against it (sushy's
      // verify=<file>); OpenSSL accepts a self-signed anchor only if it may sign certificates.
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, keyCertSign: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

/** Starts the emulator; resolves once it listens. */
export async function startRedfishEmulator(opts: RedfishEmulatorOptions): Promise<RunningRedfishEmulator> {
  opts.signal?.throwIfAborted();
  const tls = opts.tls === 'self-signed' ? await selfSignedCertificate(opts.host) : opts.tls || undefined;
  const app = buildRedfishApp({ ...opts, ...(tls ? { https: tls } : {}) });
  await app.listen({ host: opts.host, port: opts.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;

  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= (async () => {
      opts.signal?.removeEventListener('abort', onAbort);
      await app.close();
    })();
    return closed;
  };
  const onAbort = () => void close();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  if (opts.signal?.aborted) await close();

  return { url: `${tls ? 'https' : 'http'}://${host}:${port}`, port, ...(tls ? { certificate: tls.cert } : {}), close };
}
