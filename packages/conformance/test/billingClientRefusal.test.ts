import { describe, expect, it } from 'vitest';
import { findCheck } from '../src/checks/registry.js';
import { runCheck } from '../src/run/checkRunner.js';
import { environmentWith, fakeTransport } from './fakeTarget.js';

/**
 * A target whose preflight allows and whose create answers `createStatus` without an acceptance
 * record (a redirect to another host, a gateway refusal): the client never reaches the create
 * path that BILL-3 and BILL-4 judge.
 */
function refusingCreates(createStatus: number) {
  const http = fakeTransport(() => ({ status: 404, body: { detail: 'no' } }));
  http.forward = async (request) => {
    const path = new URL(request.url).pathname;
    if (path.endsWith('/billing/resource-eligibility'))
      return Response.json({ allowed: true, reason: 'ok' }, { status: 200 });
    return new Response('', {
      status: createStatus,
      headers: createStatus === 307 ? { location: 'http://127.0.0.1:1/elsewhere' } : {},
    });
  };
  return environmentWith(http, { mutations: true });
}

describe('BILL-3 and BILL-4 when the target refuses the create after allowing it', () => {
  it.each([
    ['BILL-3 the client makes a fresh preflight immediately before each create', 307],
    ['BILL-3 the client makes a fresh preflight immediately before each create', 503],
    ['BILL-4 the client sends product endpoints no wallet balance, credit limit or other billing state', 307],
  ])(
    '%s: no verdict (inconclusive, naming the refusal), never the suite own failure (%i)',
    async (title, status) => {
      const check = findCheck(title) ?? expect.fail(`${title} is not in the registry`);
      const { result } = await runCheck(check, refusingCreates(status), new AbortController().signal);
      expect(result.verdict.state, JSON.stringify(result.verdict)).toBe('inconclusive');
      expect(JSON.stringify(result.verdict)).toMatch(/refused the create after its own preflight allowed it/);
    },
  );
});
