/**
 * Posts the inspection payload to the callback URL (`POST /v1/continue_inspection` of Ironic, or
 * `/v1/continue` of the legacy inspector), retrying with exponential backoff on connection errors and
 * 5xx answers until a total time runs out. 409 (the node is locked: the conductor is still moving it to
 * `inspect wait`, which a fast boot can outrun) is retried too; any other 4xx answer is final (the data
 * will not become valid by resending it).
 */
import http from 'node:http';
import https from 'node:https';
import { IngotError, fail, messageOf } from '../shared/errors.js';
import { retry } from '../shared/retry.js';

/** Options of {@link postInspection}. */
export interface PostInspectionOptions {
  /** Give up when the next attempt would start after this much time (ms) since the first. */
  totalTimeoutMs: number;
  /** Timeout of one attempt (default: 60 s, capped by the time left). */
  requestTimeoutMs?: number;
  /** First retry delay (default 1 s), doubled per attempt up to `maxDelayMs` (default 30 s). */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Do not verify the server's TLS certificate (`ipa-insecure`). */
  insecure?: boolean;
  signal?: AbortSignal;
  /** Told before each wait: attempt number that failed, why, and the wait. */
  onRetry?: (attempt: number, reason: string, delayMs: number) => void;
}

/** The callback's answer. */
export interface PostInspectionAnswer {
  status: number;
  /** Parsed JSON body, or the text when it is not JSON, or null when empty. */
  body: unknown;
  attempts: number;
}

interface RawAnswer {
  status: number;
  text: string;
}

function once(url: URL, body: string, timeoutMs: number, insecure: boolean, signal?: AbortSignal): Promise<RawAnswer> {
  const lib = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(
      url,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Content-Length': Buffer.byteLength(body) },
        timeout: timeoutMs,
        signal,
        ...(url.protocol === 'https:' ? { rejectUnauthorized: !insecure } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Posts `payload` as JSON to `callbackUrl` and returns the first 2xx/3xx answer. Throws
 * DriverOperationError on a 4xx answer, or when the total time runs out (with the last reason).
 */
export async function postInspection(callbackUrl: string, payload: unknown, options: PostInspectionOptions): Promise<PostInspectionAnswer> {
  const url = new URL(callbackUrl);
  const body = JSON.stringify(payload);
  const start = Date.now();
  let attempts = 0;
  try {
    return await retry(async (attempt) => {
      attempts = attempt;
      const left = options.totalTimeoutMs - (Date.now() - start);
      const answer = await once(url, body, Math.max(1, Math.min(options.requestTimeoutMs ?? 60_000, left)), options.insecure ?? false, options.signal);
      if (answer.status < 400) return { status: answer.status, body: parseBody(answer.text), attempts: attempt };
      const detail = answer.text.slice(0, 500);
      if (answer.status < 500 && answer.status !== 409) {
        throw fail('inspectionCallbackRefused', { url: callbackUrl, status: answer.status, body: detail });
      }
      throw new Error(`HTTP ${answer.status} ${detail}`);
    }, {
      // Exponential backoff with jitter (50–100 % of the step) so a rack of agents does not retry in step.
      backoff: { initialMs: options.initialDelayMs ?? 1000, maxMs: options.maxDelayMs ?? 30_000, jitter: 'equal' },
      deadline: start + options.totalTimeoutMs,
      retryable: (err) => !(err instanceof IngotError),
      onRetry: (attempt, err, delayMs) => options.onRetry?.(attempt, messageOf(err), delayMs),
      signal: options.signal,
    });
  } catch (err) {
    if (options.signal?.aborted || err instanceof IngotError) throw err;
    throw fail('inspectionCallbackFailed', { url: callbackUrl, attempts, seconds: Math.round((Date.now() - start) / 1000), reason: messageOf(err) });
  }
}
