import { describe, expect, it } from 'vitest';
import { findCheck } from '../src/checks/registry.js';
import { runCheck } from '../src/run/checkRunner.js';
import { environmentWith, fakeTransport } from './fakeTarget.js';

const noBody = findCheck('RESP-2 release reserved IP answers 204 with no body');

/** A release answered 204 with these headers; a client never reads what follows a 204. */
async function verdictWith(headers: Record<string, string>) {
  const http = fakeTransport((request) =>
    request.method === 'DELETE' ? { status: 204, headers } : { status: 404, body: { detail: 'no' } },
  );
  const { result } = await runCheck(
    noBody ?? expect.fail('RESP-2 is not in the registry'),
    environmentWith(http, { mutations: true, resources: { releasableReservedIpIds: ['rip-1', 'rip-2'] } }),
    new AbortController().signal,
  );
  return result.verdict;
}

describe('RESP-2: a 204 carries no body, as its headers say too', () => {
  it('passes a 204 without a length, or with Content-Length: 0', async () => {
    expect(await verdictWith({})).toEqual({ state: 'passed' });
    expect(await verdictWith({ 'content-length': '0' })).toEqual({ state: 'passed' });
  });

  it.each([
    [{ 'content-length': '31', 'content-type': 'application/json' }, /Content-Length: 31/],
    [{ 'transfer-encoding': 'chunked' }, /Transfer-Encoding: chunked/],
  ])('fails a 204 whose headers announce a body (%j)', async (headers, message) => {
    const verdict = await verdictWith(headers);
    expect(verdict.state).toBe('failed');
    expect(verdict.state === 'failed' && verdict.failures[0]?.message).toMatch(message);
  });
});
