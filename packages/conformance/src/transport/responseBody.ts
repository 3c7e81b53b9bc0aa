import type { IncomingMessage } from 'node:http';

/**
 * Reads a body up to `limit` bytes; resolves `undefined` past it, having destroyed the stream,
 * which drops the connection, so a target sending gigabytes costs the run one limit's worth of
 * memory. Rejects on a stream error (a reset mid-body).
 */
export function readCapped(body: IncomingMessage, limit: number): Promise<string | undefined> {
  if (Number(body.headers['content-length'] ?? 0) > limit) {
    body.destroy();
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    body.on('data', (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total > limit) {
        body.destroy();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    body.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    body.on('error', reject);
    // Closed before its end without an error (the connection went away mid-body): no answer.
    body.on('close', () => {
      if (!body.complete)
        reject(
          Object.assign(new Error('the connection closed before the answer was complete'), {
            code: 'ECONNRESET',
          }),
        );
    });
  });
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
