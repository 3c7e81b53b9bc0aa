/**
 * The raw loop: the suite's own client (`node:http`, kept-alive connections) sending recorded
 * requests one at a time, reading each body, checking nothing.
 */

import { Agent, request } from 'node:http';
import type { RecordedRequest } from './benchTarget.js';

export interface RawReplay {
  /** Sends every request in order; returns the milliseconds it took and the statuses seen. */
  run(requests: readonly RecordedRequest[]): Promise<{ ms: number; statuses: number[] }>;
  close(): void;
}

export function createRawReplay(origin: string): RawReplay {
  const agent = new Agent({ keepAlive: true });
  const send = (entry: RecordedRequest): Promise<number> =>
    new Promise((resolve, reject) => {
      const sent = request(
        `${origin}${entry.url}`,
        { method: entry.method, headers: entry.headers, agent },
        (response) => {
          response
            .on('data', () => undefined)
            .on('end', () => resolve(response.statusCode ?? 0))
            .on('error', reject);
        },
      );
      sent.on('error', reject);
      sent.end(entry.body.length > 0 ? entry.body : undefined);
    });
  return {
    async run(requests) {
      const statuses: number[] = [];
      const started = performance.now();
      for (const entry of requests) statuses.push(await send(entry));
      return { ms: performance.now() - started, statuses };
    },
    close: () => agent.destroy(),
  };
}
