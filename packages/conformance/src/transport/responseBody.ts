import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import type { InFlightLimit } from './inFlightLimit.js';

/**
 * Bodies up to this size are read side by side; past it a body must hold the run's large-body
 * lane. The API's records are a few hundred bytes; only a list (the buckets) may be larger.
 */
export const SMALL_BODY_BYTES = 1024 * 1024;

/**
 * Reads a body up to `limit` bytes; resolves `undefined` past it, having destroyed the stream,
 * which drops the connection. Rejects on a stream error (a reset mid-body).
 *
 * Memory: past SMALL_BODY_BYTES a body is read only while it holds `largeBodies` (one at a time):
 * the others pause, and TCP holds their bytes on the target's side. So however many requests are
 * in flight, a run holds at most one large body and a megabyte of each other one; a target sending
 * gigabytes to every request costs the run one `limit`, not concurrency times it.
 */
export function readCapped(
  body: IncomingMessage,
  limit: number,
  largeBodies?: InFlightLimit,
): Promise<Buffer | undefined> {
  if (Number(body.headers['content-length'] ?? 0) > limit) {
    body.destroy();
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    // The lane: not asked for, waited for, held, or given back (the body ended or was dropped).
    let lane: 'none' | 'waiting' | 'held' | 'done' = 'none';
    const giveBack = (): void => {
      if (lane === 'held') largeBodies?.release();
      // A wait still pending gives the lane back as soon as it is granted.
      lane = 'done';
    };
    const askForLane = (): void => {
      if (!largeBodies || lane !== 'none') return;
      const granted = largeBodies.acquire();
      if (!granted) {
        lane = 'held';
        return;
      }
      lane = 'waiting';
      body.pause();
      void granted.then(() => {
        if (lane === 'done') {
          largeBodies.release();
          return;
        }
        lane = 'held';
        body.resume();
      });
    };
    body.on('data', (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total > limit) {
        giveBack();
        chunks.length = 0;
        body.destroy();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
      if (total > SMALL_BODY_BYTES) askForLane();
    });
    body.on('end', () => {
      giveBack();
      resolve(Buffer.concat(chunks));
    });
    // The status line and headers came; the body did not: said as such, with how much of it came.
    body.on('error', (error: NodeJS.ErrnoException) => {
      giveBack();
      reject(error.code === 'ECONNRESET' || error.message === 'aborted' ? cutShort(body, total) : error);
    });
    body.on('close', () => {
      giveBack();
      if (!body.complete) reject(cutShort(body, total));
    });
  });
}

/** The code of a body the connection dropped before its end (see describeTransportFailure). */
export const BODY_CUT_SHORT = 'EBODYCUTSHORT';

/** A body that stopped after `received` bytes, against what its framing announced. */
function cutShort(body: IncomingMessage, received: number): Error {
  const announced = body.headers['content-length'];
  const framing =
    announced !== undefined
      ? ` of the ${announced} its Content-Length announced`
      : /chunked/i.test(body.headers['transfer-encoding'] ?? '')
        ? ', before the last chunk of its chunked body'
        : '';
  return Object.assign(
    new Error(
      `the status line and headers came (${body.statusCode}), then the connection closed after ${received} byte${received === 1 ? '' : 's'} of the body${framing}`,
    ),
    { code: BODY_CUT_SHORT },
  );
}

/** Fields RFC 9110 allows once: sent twice, a client may read either value. */
const SINGLETON_FIELDS = ['content-type', 'location', 'retry-after'] as const;

/**
 * What a client cannot read one way only: a body that is not UTF-8 (RFC 8259 §8.1: JSON between
 * systems MUST be), or a singleton field sent twice. Node keeps the first Content-Type and drops
 * the second, so the raw header list is what shows it.
 */
export function wireDefects(body: Buffer, rawHeaders: readonly string[]): string[] {
  const defects: string[] = [];
  if (!isUtf8(body)) defects.push('the body is not valid UTF-8 (JSON between systems must be UTF-8)');
  for (const field of SINGLETON_FIELDS) {
    const values = rawHeaders.filter((_, i) => i % 2 === 1 && rawHeaders[i - 1]?.toLowerCase() === field);
    if (values.length > 1)
      defects.push(
        `${field} is sent ${values.length} times (${values.map((v) => JSON.stringify(v)).join(', ')}): a client may read either`,
      );
  }
  return defects;
}

/** Response headers as one string each: repeated ones joined with ", " as fetch's Headers does. */
export function flatHeaders(raw: IncomingMessage['headers']): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name in raw) {
    const value = raw[name];
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}
