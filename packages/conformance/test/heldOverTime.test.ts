import { describe, expect, it } from 'vitest';
import { type KeyedAcceptance, lateRetryCandidate } from '../src/checks/keyedCreateLog.js';
import { findCheck } from '../src/checks/registry.js';
import { runCheck } from '../src/run/checkRunner.js';
import type { ApiRequest, Exchange } from '../src/transport/exchange.js';
import { environmentWith, fakeTransport } from './fakeTarget.js';

const lateRetry = findCheck(
  'IDEM-2 a create retried with the same key once a client would have timed out, other keys accepted in between, yields the same operation',
);

interface CreateTargetOptions {
  readonly keep?: number;
  readonly retryStatus?: number;
  readonly perInstance?: boolean;
}

/**
 * A create endpoint that keeps the answer of every key, of the latest `keep` keys, or answers the
 * retry of an old key with `retryStatus`; every other request is refused. `perInstance`: two
 * instances behind a balancer pinning connections, each with its own answers: the kept-alive
 * connection reaches the first, each new connection the next in turn.
 */
function createTarget(options: CreateTargetOptions) {
  const answers = new Map<string, unknown>();
  let created = 0;
  let connections = 0;
  return fakeTransport((request: ApiRequest, { freshConnection }) => {
    if (request.method !== 'POST' || request.path !== '/compute/cloud-vms') return { status: 404 };
    const instance = options.perInstance && freshConnection ? ++connections % 2 : 0;
    const key = `${instance} ${request.headers['X-Idempotency-Key'] ?? request.headers['x-idempotency-key'] ?? ''}`;
    const known = answers.get(key);
    if (known && options.retryStatus) return { status: options.retryStatus, body: { detail: 'used' } };
    if (known) return { status: 202, body: known };
    created++;
    const record = {
      operation_id: `op-${created}`,
      vm_id: `vm-${created}`,
      status: 'accepted',
      submitted_at: new Date().toISOString(),
    };
    answers.set(key, record);
    if (options.keep !== undefined)
      for (const old of [...answers.keys()].slice(0, -options.keep)) answers.delete(old);
    return { status: 202, body: record };
  });
}

async function lateRetryVerdict(options: CreateTargetOptions) {
  const http = createTarget(options);
  // The shortest request timeout a profile may set: the retry waits that long, not ten seconds.
  const environment = environmentWith(http, { mutations: true, requestTimeoutMs: 100 });
  const { result } = await runCheck(
    lateRetry ?? expect.fail('the late-retry check is not in the registry'),
    environment,
    new AbortController().signal,
  );
  return { verdict: result.verdict, sent: http.sent };
}

describe('IDEM-2 late retry: a key is remembered for a client timeout, whatever keys come between', () => {
  it('passes a target that keeps every key, after waiting the request timeout with two other keys accepted', async () => {
    const { verdict, sent } = await lateRetryVerdict({});
    expect(verdict).toEqual({ state: 'passed' });
    const keys = sent.map(
      (request) => request.headers['X-Idempotency-Key'] ?? request.headers['x-idempotency-key'],
    );
    // Three creates with their own keys, then the first again.
    expect(new Set(keys).size).toBe(3);
    expect(keys.at(-1)).toBe(keys[0]);
  });

  it('fails a target whose store holds the latest two keys only, naming both operations', async () => {
    const { verdict } = await lateRetryVerdict({ keep: 2 });
    expect(verdict.state).toBe('failed');
    if (verdict.state !== 'failed') return;
    expect(verdict.failures[0]?.message).toMatch(
      /accepted as operation "op-1" for VM "vm-1" was retried .* after 2 other keys were accepted, and answered with operation "op-4" for VM "vm-4": the key was forgotten/,
    );
  });

  it('fails a target whose answers are kept per instance: the retry on a new connection meets the other', async () => {
    const { verdict } = await lateRetryVerdict({ perInstance: true });
    expect(verdict.state).toBe('failed');
    if (verdict.state !== 'failed') return;
    expect(verdict.failures[0]?.message).toMatch(
      /accepted as operation "op-1" for VM "vm-1" was retried .* \(on a new connection\) .* answered with operation "op-4" for VM "vm-4"/,
    );
  });

  it('is inconclusive, never passed, when the late retry is refused with a 4xx', async () => {
    const { verdict } = await lateRetryVerdict({ retryStatus: 409 });
    expect(verdict.state).toBe('inconclusive');
    expect(verdict.state === 'inconclusive' && verdict.reason).toMatch(/answered 409: nothing started twice/);
  });
});

describe('lateRetryCandidate', () => {
  const acceptance = (key: string, answeredAt: number): KeyedAcceptance => ({
    key,
    answeredAt,
    ids: { operationId: `op-${key}`, vmId: `vm-${key}` },
    exchange: {} as Exchange,
  });
  const window = { horizonMs: 10_000, capMs: 60_000, between: 2 };

  it('takes the oldest acceptance with two other keys after it, by order, within the cap; else none', () => {
    const log = [acceptance('a', 0), acceptance('b', 1_000), acceptance('c', 5_000), acceptance('d', 9_000)];
    // Whatever the clock says (before or after the horizon), the oldest with enough keys after it.
    expect(lateRetryCandidate(log, window, 3_000)?.key).toBe('a');
    expect(lateRetryCandidate(log, window, 12_000)?.key).toBe('a');
    // Past the cap for a (61 s), b is the oldest still within it.
    expect(lateRetryCandidate(log, window, 61_000)?.key).toBe('b');
    // b is past the cap too, and c has only d after it.
    expect(lateRetryCandidate(log, window, 62_000)).toBeUndefined();
    expect(lateRetryCandidate(log, { ...window, between: 3 }, 12_000)?.key).toBe('a');
    expect(lateRetryCandidate(log.slice(0, 2), window, 12_000)).toBeUndefined();
  });

  it('does not count the same key again (a copy in another workspace) as another key', () => {
    const log = [acceptance('a', 0), acceptance('a', 1), acceptance('b', 2)];
    expect(lateRetryCandidate(log, window, 10)).toBeUndefined();
    expect(lateRetryCandidate(log, { ...window, between: 1 }, 10)?.key).toBe('a');
  });
});

const sweep = findCheck(
  'AUTH-3 a revoked token stays refused on reads sent every 20 ms for more than a second, every other one on a new connection',
);

/** A target that refuses the revoked token, except during the first `lapseMs` of every second. */
function revocationTarget(lapseMs: number) {
  return fakeTransport((request: ApiRequest) => {
    const revoked = request.headers.authorization === `Bearer ${REVOKED}`;
    if (revoked && Date.now() % 1000 >= lapseMs) return { status: 401, body: { detail: 'revoked' } };
    return { status: 200, body: [] };
  });
}

const REVOKED = 'svc_dev_key_FAKErevokedNotAreal';

describe('AUTH-3 over a second: a revocation that lapses for a moment is met', () => {
  it('passes a target that refuses the revoked token on every read, sending reads 20 ms apart for 1.2 s', async () => {
    const http = revocationTarget(0);
    const { result } = await runCheck(
      sweep ?? expect.fail('the AUTH-3 sweep is not in the registry'),
      environmentWith(http, { revokedToken: REVOKED }),
      new AbortController().signal,
    );
    expect(result.verdict).toEqual({ state: 'passed' });
    expect(http.sent.length).toBeGreaterThanOrEqual(40);
    expect(http.sent.every((request) => request.method === 'GET')).toBe(true);
  });

  it('fails a target whose other instance, met on new connections, kept the revoked token in its cache', async () => {
    const http = fakeTransport((request: ApiRequest, { freshConnection }) =>
      request.headers.authorization === `Bearer ${REVOKED}` && !freshConnection
        ? { status: 401, body: { detail: 'revoked' } }
        : { status: 200, body: [] },
    );
    const { result } = await runCheck(
      sweep ?? expect.fail('the AUTH-3 sweep is not in the registry'),
      environmentWith(http, { revokedToken: REVOKED }),
      new AbortController().signal,
    );
    expect(result.verdict.state).toBe('failed');
    if (result.verdict.state !== 'failed') return;
    expect(result.verdict.failures[0]?.message).toMatch(/answered 200, .*\(read 2, on a new connection,/);
  });

  it('fails a target whose revocation list is empty for 60 ms of every second', async () => {
    const { result } = await runCheck(
      sweep ?? expect.fail('the AUTH-3 sweep is not in the registry'),
      environmentWith(revocationTarget(60), { revokedToken: REVOKED }),
      new AbortController().signal,
    );
    expect(result.verdict.state).toBe('failed');
    if (result.verdict.state !== 'failed') return;
    expect(result.verdict.failures[0]?.message).toMatch(
      /answered 200, expected a rejection \(401 or 403\) of the revoked token/,
    );
  });
});
