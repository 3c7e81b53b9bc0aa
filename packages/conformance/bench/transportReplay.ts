/**
 * The suite's own transport (createTargetHttp: pacing, in-flight bound, timeouts, capped body
 * reads, JSON parsing, the exchange log) sending the recorded requests, `concurrency` at a time,
 * with nothing checked. Beside the raw loop it shows what the transport costs; beside the suite,
 * what the checks cost on top of it.
 */

import { createTargetHttp } from '@cloud-api/conformance';
import type { RecordedRequest } from './benchTarget.js';

export async function transportReplay(
  baseUrl: string,
  requests: readonly RecordedRequest[],
  concurrency: number,
): Promise<number> {
  const basePath = new URL(baseUrl).pathname.replace(/\/$/, '');
  const prepared = requests.map((entry) => {
    const url = new URL(entry.url, 'http://replay.invalid');
    return {
      method: entry.method,
      path: url.pathname.slice(basePath.length),
      query: [],
      encodedQuery: url.search.slice(1),
      headers: entry.headers,
      ...(entry.body.length > 0 ? { body: entry.body } : {}),
    };
  });
  const http = createTargetHttp({
    baseUrl,
    requestTimeoutMs: 10_000,
    maxInFlight: concurrency,
    onExchange: () => undefined,
  });
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < prepared.length) {
      const request = prepared[next++];
      if (request) await http.send(request);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, lane));
  return performance.now() - started;
}
