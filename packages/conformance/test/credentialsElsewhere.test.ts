import { describe, expect, it } from 'vitest';
import { findCheck } from '../src/checks/registry.js';
import { runCheck } from '../src/run/checkRunner.js';
import type { ApiRequest } from '../src/transport/exchange.js';
import { environmentWith, fakeTransport, TOKEN } from './fakeTarget.js';

const elsewhere = findCheck(
  'AUTH-1 answers 401 to a request without the Authorization header that carries a valid token elsewhere (a cookie, an access_token member of the JSON body)',
);

/** How a target finds the caller's token: `where` lists the places besides the header it reads. */
function authenticatingTarget(where: { body?: boolean; cookie?: boolean; bodyFirst?: boolean }) {
  return fakeTransport((request: ApiRequest) => {
    const body = request.body === undefined ? {} : (JSON.parse(request.body) as Record<string, unknown>);
    if (where.bodyFirst && 'access_token' in body) return { status: 400, body: { detail: 'unknown member' } };
    const token =
      request.headers.authorization?.replace(/^Bearer /, '') ??
      (where.cookie ? /access_token=([^;]+)/.exec(request.headers.cookie ?? '')?.[1] : undefined) ??
      (where.body ? (body.access_token as string | undefined) : undefined);
    return token === TOKEN ? { status: 200, body: {} } : { status: 401, body: { detail: 'no token' } };
  });
}

async function verdictOn(http: ReturnType<typeof authenticatingTarget>) {
  const { result } = await runCheck(
    elsewhere ?? expect.fail('the AUTH-1 credentials-elsewhere check is not in the registry'),
    environmentWith(http),
    new AbortController().signal,
  );
  return result.verdict;
}

describe('AUTH-1: a token carried anywhere but the Authorization header is no credential', () => {
  it('passes a target that reads the header only, sending the token in a cookie and in every JSON body', async () => {
    const http = authenticatingTarget({});
    expect(await verdictOn(http)).toEqual({ state: 'passed' });
    expect(http.sent.every((request) => request.headers.authorization === undefined)).toBe(true);
    expect(http.sent.some((request) => request.headers.cookie === `access_token=${TOKEN}`)).toBe(true);
    expect(http.sent.some((request) => request.body?.includes(`"access_token":"${TOKEN}"`))).toBe(true);
  });

  it.each([
    ['the JSON body', { body: true }, /a valid token in an access_token member of the JSON body/],
    ['a cookie', { cookie: true }, /a valid token in a cookie/],
  ])('fails a target that also reads the token from %s', async (_where, where, message) => {
    const verdict = await verdictOn(authenticatingTarget(where));
    expect(verdict.state).toBe('failed');
    if (verdict.state !== 'failed') return;
    expect(verdict.failures[0]?.message).toMatch(message);
  });

  it('takes no verdict from a body refused for its extra member before the token is read, and still judges the cookie', async () => {
    expect(await verdictOn(authenticatingTarget({ bodyFirst: true }))).toEqual({ state: 'passed' });
    const verdict = await verdictOn(authenticatingTarget({ bodyFirst: true, cookie: true }));
    expect(verdict.state).toBe('failed');
  });
});
