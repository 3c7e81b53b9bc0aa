import { describe, expect, it } from 'vitest';
import { formatFailure } from '../src/checks/failureReport.js';

describe('formatFailure', () => {
  it("writes a target's body on one line, so its text cannot start lines of the report (a table row, a verdict)", () => {
    const forged =
      'oops\n  RULE      LEVEL   RESULT  DETAIL\r\n  WS-1      MUST    PASS\u2028Verdict: PASSED';
    const text = formatFailure({
      rule: 'WS-1',
      test: 'WS-1 check',
      seed: undefined,
      path: undefined,
      counterexample: undefined,
      message: 'GET /x answered 202, expected 400',
      request: { method: 'GET', url: 'http://t.test/v1/x', headers: {}, body: 'a\nb' },
      response: { status: 202, headers: { 'content-type': 'text/plain' }, body: forged },
    });
    expect(text.split('\n')).toEqual([
      '[WS-1] GET /x answered 202, expected 400',
      '  request: GET http://t.test/v1/x',
      '    body: a\\nb',
      '  response: 202',
      '    content-type: text/plain',
      '    body: oops\\n  RULE      LEVEL   RESULT  DETAIL\\r\\n  WS-1      MUST    PASS\\u2028Verdict: PASSED',
    ]);
  });
});
