import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../src/run/engine.js';
import { scopeNames, type TargetProfile } from '../src/targetProfile/index.js';
import {
  embeddedSandboxProfile,
  loadSandboxModule,
  startSandboxTarget,
} from '../src/targets/sandboxTarget.js';
import { RateLimitedError } from '../src/transport/exchange.js';
import { createTargetHttp, MAX_RETRY_AFTER_MS, retryAfterMs } from '../src/transport/targetHttp.js';
import { forwardTo, listenLocally } from './localServer.js';

/** The largest number of timestamps falling in any window of `windowMs`. */
function busiestWindow(timestamps: readonly number[], windowMs = 1000): number {
  const sorted = [...timestamps].sort((a, b) => a - b);
  let most = 0;
  for (let start = 0, end = 0; end < sorted.length; end++) {
    while ((sorted[end] as number) - (sorted[start] as number) >= windowMs) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

/**
 * A target that answers `429` with `retryAfter` to the first `limited` requests (all of them
 * when `limited` is Infinity) and otherwise passes the request on to `upstream`, or answers 200.
 */
async function rateLimitingTarget(options: {
  limited: number;
  retryAfter: string;
  upstream?: string;
  /** Requests answered before the first 429 (default none). */
  from?: number;
}) {
  const arrivals: { at: number; status: number }[] = [];
  const server = await listenLocally((req, res) => {
    const from = options.from ?? 0;
    const limited = arrivals.length >= from && arrivals.length < from + options.limited;
    arrivals.push({ at: Date.now(), status: limited ? 429 : 200 });
    if (limited) {
      res
        .writeHead(429, { 'content-type': 'application/json', 'retry-after': options.retryAfter })
        .end(JSON.stringify({ detail: 'Too many requests' }));
      return;
    }
    if (!options.upstream) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      return;
    }
    forwardTo(options.upstream, req, res);
  });
  return { server, arrivals, baseUrl: `${server.origin}/v1` };
}

/** The transport as a run at `rateLimitPerSecond: 20` has it. */
const pacedAt20 = (baseUrl: string, maxInFlight: number) =>
  createTargetHttp({ baseUrl, requestTimeoutMs: 5000, rateLimitPerSecond: 20, maxInFlight });

const listBuckets = {
  method: 'GET',
  path: '/object-storage/buckets',
  query: [['workspace_id', '1042']] as const,
  headers: { authorization: 'Bearer svc_dev_key_ratelimit_full' },
};

describe('Retry-After parsing', () => {
  it('reads delta-seconds and HTTP dates, and treats a past date as no wait', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(retryAfterMs('1', now)).toBe(1000);
    expect(retryAfterMs('86400', now)).toBe(86_400_000);
    expect(retryAfterMs('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
  });
});

describe('429 and the rate limit in the transport', () => {
  it('waits at least Retry-After before retrying, then hands the real answer to the check', async () => {
    const target = await rateLimitingTarget({ limited: 2, retryAfter: '1' });
    try {
      const http = createTargetHttp({ baseUrl: target.baseUrl, requestTimeoutMs: 5000 });
      const exchange = await http.send(listBuckets);
      expect(exchange.response.status).toBe(200);
      expect(target.arrivals.map((a) => a.status)).toEqual([429, 429, 200]);
      const [first, second, third] = target.arrivals.map((a) => a.at) as [number, number, number];
      expect(second - first).toBeGreaterThanOrEqual(1000);
      expect(third - second).toBeGreaterThanOrEqual(1000);
    } finally {
      await target.server.close();
    }
  });

  it('pauses every request after a 429, also those sent by the client package', async () => {
    const target = await rateLimitingTarget({ limited: 1, retryAfter: '1' });
    try {
      const http = createTargetHttp({ baseUrl: target.baseUrl, requestTimeoutMs: 5000 });
      const refused = http.send(listBuckets);
      // Forward only once the client has read the 429 (a fixed sleep raced a loaded machine).
      while (http.stats.pausedUntil === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      const forwarded = await http.forward(
        new Request(`${target.baseUrl}/object-storage/buckets?workspace_id=1042`, {
          headers: listBuckets.headers,
        }),
      );
      expect(forwarded.status).toBe(200);
      expect((await refused).response.status).toBe(200);
      const [first, ...rest] = target.arrivals.map((a) => a.at) as [number, ...number[]];
      for (const at of rest) expect(at - first).toBeGreaterThanOrEqual(1000);
    } finally {
      await target.server.close();
    }
  });

  it.each([
    ['86400', 'an absurd number of seconds'],
    [new Date(Date.now() + 365 * 86_400_000).toUTCString(), 'a date a year ahead'],
  ])('fails at once with a clear message when Retry-After is %s (%s)', async (retryAfter) => {
    const target = await rateLimitingTarget({ limited: Number.POSITIVE_INFINITY, retryAfter });
    try {
      const http = createTargetHttp({ baseUrl: target.baseUrl, requestTimeoutMs: 5000 });
      const started = Date.now();
      const error = await http.send(listBuckets).catch((caught: unknown) => caught);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(error).toBeInstanceOf(RateLimitedError);
      expect((error as Error).message).toContain(`429 Too Many Requests with Retry-After: ${retryAfter}`);
      expect((error as Error).message).toContain(`waits at most ${MAX_RETRY_AFTER_MS / 1000} s`);
      expect(target.arrivals).toHaveLength(1);
    } finally {
      await target.server.close();
    }
  });

  it('does not wait past the run deadline, and gives up on a target that keeps answering 429', async () => {
    const target = await rateLimitingTarget({ limited: Number.POSITIVE_INFINITY, retryAfter: '2' });
    const never = await rateLimitingTarget({ limited: Number.POSITIVE_INFINITY, retryAfter: '0' });
    try {
      const soon = createTargetHttp({
        baseUrl: target.baseUrl,
        requestTimeoutMs: 5000,
        deadlineAt: Date.now() + 1000,
      });
      await expect(soon.send(listBuckets)).rejects.toThrow(/would pass the run deadline/);
      const stubborn = createTargetHttp({ baseUrl: never.baseUrl, requestTimeoutMs: 5000 });
      await expect(stubborn.send(listBuckets)).rejects.toThrow(
        /still answered 429 Too Many Requests \(with Retry-After: 0\) after 4 retries/,
      );
      expect(never.arrivals).toHaveLength(5);
      // Two more requests given up on the same way, then the run sends nothing more.
      for (let i = 0; i < 2; i++) await expect(stubborn.send(listBuckets)).rejects.toThrow(RateLimitedError);
      await expect(stubborn.send(listBuckets)).rejects.toThrow(
        /not sent: the last 3 requests were still refused with 429 Too Many Requests after their retries/,
      );
      expect(never.arrivals).toHaveLength(15);
    } finally {
      await target.server.close();
      await never.server.close();
    }
  });

  it('a request refused with 429 is retried before any request waiting for a slot goes out (one allowed a second)', async () => {
    // One request a second, like a limit on creates per workspace: a waiting request that went
    // out between a refused one and its retry would take the allowance the retry waited for.
    const refusedBy = new Map<string, number>();
    let lastAllowed = 0;
    const server = await listenLocally((req, res) => {
      const id = new URL(req.url ?? '/', 'http://x').searchParams.get('n') ?? '?';
      if (Date.now() - lastAllowed < 1000) {
        refusedBy.set(id, (refusedBy.get(id) ?? 0) + 1);
        res
          .writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' })
          .end(JSON.stringify({ detail: 'one a second' }));
        return;
      }
      lastAllowed = Date.now();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    try {
      const http = createTargetHttp({
        baseUrl: `${server.origin}/v1`,
        requestTimeoutMs: 5000,
        maxInFlight: 3,
      });
      const sent = ['1', '2', '3', '4'].map((n) =>
        http.send({ ...listBuckets, query: [...listBuckets.query, ['n', n]] }),
      );
      const answers = await Promise.all(sent);
      expect(answers.map((a) => a.response.status)).toEqual([200, 200, 200, 200]);
      // Each request was refused at most once (its retry, sent first after the pause, got through).
      expect(Math.max(...refusedBy.values())).toBeLessThanOrEqual(1);
    } finally {
      await server.close();
    }
  }, 20_000);

  it('never has more than maxInFlight requests in flight, however many are sent at once', async () => {
    let inFlight = 0;
    let most = 0;
    const slow = await listenLocally((_req, res) => {
      inFlight++;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight--;
        res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
      }, 20);
    });
    try {
      const http = createTargetHttp({ baseUrl: `${slow.origin}/v1`, requestTimeoutMs: 5000, maxInFlight: 3 });
      const answers = await Promise.all(Array.from({ length: 12 }, () => http.send(listBuckets)));
      expect(answers.map((a) => a.response.status)).toEqual(Array(12).fill(200));
      expect(most).toBe(3);
    } finally {
      await slow.close();
    }
  });

  it('never sends more than rateLimitPerSecond requests in any second, whether sent one by one or at once', async () => {
    const target = await rateLimitingTarget({ limited: 0, retryAfter: '1' });
    try {
      const http = pacedAt20(target.baseUrl, 15);
      await Promise.all(Array.from({ length: 15 }, () => http.send(listBuckets)));
      for (let i = 0; i < 15; i++) {
        if (i % 2 === 0) await http.send(listBuckets);
        else
          await http.forward(
            new Request(`${target.baseUrl}/object-storage/buckets?workspace_id=1042`, {
              headers: listBuckets.headers,
            }),
          );
      }
      const times = target.arrivals.map((a) => a.at);
      expect(times).toHaveLength(30);
      expect(busiestWindow(times)).toBeLessThanOrEqual(20);
      // Unpaced, 30 local requests take a few milliseconds; paced at 20/s they leave over about
      // 1.6 s (arrival times: a first request held up on a loaded machine shortens the span).
      expect(Math.max(...times) - Math.min(...times)).toBeGreaterThanOrEqual(1200);
    } finally {
      await target.server.close();
    }
  });

  it('lets a group admitted together leave at once, and still never more than rateLimitPerSecond in any second', async () => {
    const target = await rateLimitingTarget({ limited: 0, retryAfter: '1' });
    try {
      const http = pacedAt20(target.baseUrl, 4);
      const groupArrivals: number[][] = [];
      for (let round = 0; round < 8; round++) {
        // Single sends before and after each group, so a group sits at both ends of some window.
        await http.send(listBuckets);
        const together = await http.admitTogether(3);
        const first = target.arrivals.length;
        await Promise.all([0, 1, 2].map(() => http.send(listBuckets, together)));
        groupArrivals.push(target.arrivals.slice(first, first + 3).map((a) => a.at));
        await http.send(listBuckets);
      }
      const times = target.arrivals.map((a) => a.at);
      expect(times).toHaveLength(40);
      expect(busiestWindow(times)).toBeLessThanOrEqual(20);
      // Paced one by one at 20/s, three sends would span at least 110 ms.
      for (const group of groupArrivals) expect(Math.max(...group) - Math.min(...group)).toBeLessThan(100);
      // An admission covers its own sends only: one more send with it is paced again. On a fresh
      // transport (no window of earlier sends to wait for, which would delay the admission past
      // its slot) and timed from the admission, not from the first answer, whose round trip on a
      // loaded machine would use up part of the interval.
      const fresh = pacedAt20(target.baseUrl, 4);
      const together = await fresh.admitTogether(1);
      const admitted = Date.now();
      await fresh.send(listBuckets, together);
      await fresh.send(listBuckets, together);
      expect(Date.now() - admitted).toBeGreaterThanOrEqual(50);
      // A limit below the group's size cannot let it leave together: paced one by one instead.
      const slow = createTargetHttp({
        baseUrl: target.baseUrl,
        requestTimeoutMs: 5000,
        rateLimitPerSecond: 2,
      });
      expect(await slow.admitTogether(3)).toEqual({});
    } finally {
      await target.server.close();
    }
  });
});

describe('a run against a rate-limited target', () => {
  let sandboxProfile: TargetProfile;
  let sandbox: { baseUrl: string; stop(): Promise<void> };
  beforeAll(async () => {
    const module = await loadSandboxModule();
    sandboxProfile = embeddedSandboxProfile(module.defaultSandboxProfile(), scopeNames());
    sandbox = await startSandboxTarget(sandboxProfile);
  });
  afterAll(() => sandbox.stop());

  /** A quiet run of `rules` against a target answering 429 with `retryAfter` to every request. */
  async function runAgainstAlways429(retryAfter: string, rules: string) {
    const target = await rateLimitingTarget({ limited: Number.POSITIVE_INFINITY, retryAfter });
    const printed: string[] = [];
    try {
      const started = Date.now();
      const result = await runConformance({
        profile: { ...sandboxProfile, baseUrl: target.baseUrl },
        rules,
        depth: 3,
        seed: 23,
        deadlineMs: 120_000,
        outDir: mkdtempSync(join(tmpdir(), 'conformance-always-429-')),
        print: (text) => printed.push(text),
      });
      return { target, result, printed: printed.join('\n'), ms: Date.now() - started };
    } finally {
      await target.server.close();
    }
  }

  it('honours 429 Retry-After and rateLimitPerSecond, and still passes', async () => {
    const target = await rateLimitingTarget({
      limited: 2,
      retryAfter: '1',
      upstream: sandbox.baseUrl,
    });
    try {
      const result = await runConformance({
        profile: { ...sandboxProfile, baseUrl: target.baseUrl, rateLimitPerSecond: 40 },
        // WS-2 goes through the suite's own requests, BILL-1 through the client package.
        rules: 'WS-2,BILL-1',
        depth: 3,
        seed: 23,
        deadlineMs: 60_000,
        reporters: ['json'],
        outDir: mkdtempSync(join(tmpdir(), 'conformance-rate-limited-')),
        print: () => undefined,
      });
      expect(result.outcome.rules.map((rule) => `${rule.id}: ${rule.state}`)).toEqual([
        'WS-2: passed',
        'BILL-1: passed',
      ]);
      expect(result.exitCode).toBe(0);
      const statuses = target.arrivals.map((a) => a.status);
      expect(statuses.slice(0, 3)).toEqual([429, 429, 200]);
      const times = target.arrivals.map((a) => a.at);
      expect((times[2] as number) - (times[1] as number)).toBeGreaterThanOrEqual(1000);
      expect(times.length).toBeGreaterThan(40);
      expect(busiestWindow(times)).toBeLessThanOrEqual(40);
    } finally {
      await target.server.close();
    }
  });

  it('keeps the 429s it waited out in the evidence (HAR), beside the answers the checks read', async () => {
    const target = await rateLimitingTarget({
      limited: 2,
      retryAfter: '1',
      upstream: sandbox.baseUrl,
      from: 10,
    });
    const outDir = mkdtempSync(join(tmpdir(), 'conformance-rate-limited-har-'));
    try {
      const result = await runConformance({
        profile: { ...sandboxProfile, baseUrl: target.baseUrl },
        rules: 'WS-2',
        depth: 3,
        seed: 23,
        deadlineMs: 60_000,
        reporters: ['har'],
        outDir,
        print: () => undefined,
      });
      expect(result.exitCode).toBe(0);
      expect(target.arrivals.filter((a) => a.status === 429)).toHaveLength(2);
      const har = JSON.parse(readFileSync(join(outDir, 'conformance.har'), 'utf8')) as {
        log: { entries: { response: { status: number } }[] };
      };
      const statuses = har.log.entries.map((entry) => entry.response.status);
      expect(statuses.filter((status) => status === 429)).toHaveLength(2);
    } finally {
      await target.server.close();
    }
  });

  it('stops sending once three requests in a row are still refused after their retries, instead of retrying every request of the run', async () => {
    const { target, result, printed, ms } = await runAgainstAlways429('1', 'WS-2,BILL-1,RESP-1,ERR-1');
    // Three requests of five tries a second apart, then nothing: about 12 s, where every
    // request retried would take 4 s each.
    expect(ms).toBeLessThan(30_000);
    expect(target.arrivals.length).toBeLessThanOrEqual(20);
    expect(result.exitCode).toBe(3);
    expect(result.outcome.rules.filter((rule) => rule.state === 'passed')).toEqual([]);
    expect(printed).toMatch(/not sent: the last 3 requests were still refused with 429/);
  }, 60_000);

  it('fails each check clearly and finishes long before its deadline when Retry-After is absurd', async () => {
    const { result, printed, ms } = await runAgainstAlways429('86400', 'WS-2,BILL-1,RESP-1');
    expect(ms).toBeLessThan(20_000);
    // No answer to judge by: the run is incomplete (exit 3), never green, and no rule passed.
    expect(result.exitCode).toBe(3);
    expect(result.outcome.verdict).toBe('incomplete');
    expect(result.outcome.rules.filter((rule) => rule.state === 'passed').map((rule) => rule.id)).toEqual([]);
    expect(printed).toMatch(
      /rate limited by the target — answered 429 Too Many Requests with Retry-After: 86400/,
    );
  });
});
