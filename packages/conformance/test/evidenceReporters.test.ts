import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { eventsSchemaPath } from '../src/generateArtifacts.js';
import { createExchangeDigest } from '../src/reporters/html/exchangeDigest.js';
import { renderHtml } from '../src/reporters/html/renderHtml.js';
import { reportModel, textParts } from '../src/reporters/html/reportModel.js';
import { reportersProblem } from '../src/reporters/index.js';
import { renderConformanceEventsSchemaFile } from '../src/reporters/ndjsonEventSchema.js';
import { reportContext } from '../src/reporters/reportContext.js';
import { ReportWriteError } from '../src/reporters/reportWriteError.js';
import { runConformance } from '../src/run/engine.js';
import type { ExchangeEvent, Reporter } from '../src/run/events.js';
import { EXCHANGE_BODY_LIMIT, exchangeEvents } from '../src/run/exchangeEvent.js';
import type { RunOutcome, TestOutcome } from '../src/run/outcome.js';
import { gateOf, ruleOutcomes, totalsOf, verdictOf } from '../src/run/verdict.js';
import { createSecretRedactor } from '../src/secrets/secretRedactor.js';
import { runCoverage } from '../src/specCoverage/coverageReport.js';
import type { Exchange } from '../src/transport/exchange.js';

const SECRET = 'svc_dev_key_FAKEevidenceUnitNotAreal';
const HOSTILE = '<script>alert("from the target")</script>';

function outcomeOf(tests: TestOutcome[], target = 'unit'): RunOutcome {
  const rules = ruleOutcomes(tests);
  const gate = gateOf(false, rules);
  return {
    verdict: verdictOf(totalsOf(rules), [], gate),
    coverage: runCoverage([], []),
    incompleteReasons: [],
    gate,
    info: {
      runId: '00000000-0000-4000-8000-000000000002',
      suiteVersion: '0.1.0',
      suiteBuild: 'checks-000000000000',
      specHash: 'f'.repeat(64),
      target,
      targetKind: 'real',
      seed: 42,
      concurrency: 1,
      depth: 5,
      profile: {
        environment: 'development',
        baseUrl: 'https://api.example.invalid/v1',
      } as RunOutcome['info']['profile'],
      startedAt: new Date(0).toISOString(),
      durationMs: 1500,
    },
    rules,
    tests,
    runErrors: [],
    created: [],
    totals: totalsOf(rules),
  };
}

const failedWithHostileAnswer: TestOutcome = {
  rule: 'AUTH-2',
  title: 'AUTH-2 answers 401 to unknown tokens on every operation',
  file: 'checks/authentication.ts',
  state: 'failed',
  durationMs: 12,
  errors: ['[AUTH-2] GET /x answered 200'],
  failures: [
    {
      rule: 'AUTH-2',
      test: 'AUTH-2 answers 401 to unknown tokens on every operation',
      seed: 42,
      path: '3:0',
      counterexample: `["</pre>${HOSTILE}"]`,
      message: `GET /x answered 200, expected 401 ${HOSTILE}`,
      request: {
        method: 'GET',
        url: 'https://api.example.invalid/v1/x?workspace_id=1042',
        headers: { authorization: 'Bearer [redacted]', 'x-quoted': '"><img src=x onerror=alert(1)>' },
      },
      response: { status: 200, headers: { 'content-type': 'text/html' }, body: HOSTILE },
      replayFile: '/tmp/replays/AUTH-2-1.json',
      replayCommand: "npx cloud-api-conformance --replay /tmp/replays/AUTH-2-1.json --target 'a b.yaml'",
    },
  ],
};

function fakeExchange(body: string): Exchange {
  return {
    url: `https://api.example.invalid/v1/object-storage/buckets?workspace_id=1042&token=${SECRET}`,
    request: {
      method: 'GET',
      path: '/object-storage/buckets',
      query: [['workspace_id', '1042']],
      headers: { authorization: `Bearer ${SECRET}`, 'x-trace': SECRET },
      body: `{"token":"${SECRET}"}`,
    },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json', 'x-echo': `Bearer ${SECRET}` },
      bodyText: body,
      json: undefined,
      isJson: false,
      durationMs: 12.5,
      startedAt: performance.now() - 12.5,
    },
  };
}

describe('exchange events (built only for reporters that observe exchanges)', () => {
  const redactor = createSecretRedactor([SECRET]);
  const eventOf = exchangeEvents(redactor);
  const check = { rule: 'RESP-1', title: 'RESP-1 unit' };

  it('carry headers, bodies, timing and the operation, every secret masked', () => {
    const event = eventOf(check, fakeExchange(`{"echo":"${SECRET}"}`));
    expect(event.operationId).toBe('listBuckets');
    expect(event.request.headers.authorization).toBe('Bearer [redacted]');
    expect(Date.parse(event.startedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(event.durationMs).toBe(12.5);
    expect(JSON.stringify(event)).not.toContain(SECRET);
    expect(event.url).toContain('token=[redacted]');
    expect(event.response.body).toEqual({
      text: '{"echo":"[redacted]"}',
      size: Buffer.byteLength(`{"echo":"${SECRET}"}`),
      truncated: false,
    });
  });

  it('cut large bodies after redacting them, so no half of a secret survives the cut', () => {
    // The secret straddles the cut: cut first, its first half would stay unmasked.
    const body = `${'a'.repeat(EXCHANGE_BODY_LIMIT - 5)}${SECRET}${'b'.repeat(50_000)}`;
    const event = eventOf(check, fakeExchange(body));
    const { text, size, truncated } = event.response.body;
    expect(truncated).toBe(true);
    expect(text).toHaveLength(EXCHANGE_BODY_LIMIT);
    expect(size).toBe(Buffer.byteLength(body));
    expect(text.endsWith(SECRET.slice(0, 5))).toBe(false);
    expect(text.endsWith('[reda')).toBe(true);
  });
});

describe('the HTML report', () => {
  it('escapes every value of the run: a <script> in an answer is text, never markup', () => {
    const html = renderHtml(
      reportModel(
        outcomeOf([failedWithHostileAnswer], `<img src=x onerror=alert(2)>`),
        createExchangeDigest().digest(),
      ),
    );
    // The page's one script is its own; none of the hostile markup arrived as markup.
    expect(html.match(/<script\b/g)).toHaveLength(1);
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('</pre><script>');
    expect(html).toContain('&lt;script&gt;alert(&quot;from the target&quot;)&lt;/script&gt;');
    expect(html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(2)&gt;');
    // The replay command as the terminal prints it (escaped for HTML, the same text on screen).
    expect(html).toContain(
      'npx cloud-api-conformance --replay /tmp/replays/AUTH-2-1.json --target &#39;a b.yaml&#39;',
    );
  });

  it("writes the catalogue's `code` spans as code, each part escaped; unbalanced backticks stay text", () => {
    expect(textParts('a `workspace_id` b')).toEqual([
      { text: 'a ', code: false },
      { text: 'workspace_id', code: true },
      { text: ' b', code: false },
    ]);
    expect(textParts('a ` b')).toEqual([{ text: 'a ` b', code: false }]);
    const html = renderHtml(
      reportModel(outcomeOf([failedWithHostileAnswer]), createExchangeDigest().digest()),
    );
    expect(html).toContain(
      '<blockquote>401 Unauthorized | The token is missing, malformed, expired or invalid.</blockquote>',
    );
  });

  it('loads nothing: a Content-Security-Policy allowing only its own style and script, no URL but its anchors', () => {
    const html = renderHtml(
      reportModel(outcomeOf([failedWithHostileAnswer]), createExchangeDigest().digest()),
    );
    expect(html).toMatch(
      /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'sha256-/,
    );
    expect(html).not.toMatch(/\b(src|href)="(?!#)/);
    expect(html).not.toMatch(/@import|url\(/);
  });

  it('keeps the last requests of a failed check only, and times every operation', () => {
    const digest = createExchangeDigest();
    const redactor = createSecretRedactor([SECRET]);
    const eventOf = exchangeEvents(redactor);
    const event = (durationMs: number): ExchangeEvent => ({
      ...eventOf({ rule: 'AUTH-2', title: 'x' }, fakeExchange('{}')),
      durationMs,
    });
    for (let i = 1; i <= 30; i++) digest.add(event(i));
    digest.checkEnded('passing check', false);
    for (let i = 1; i <= 3; i++) digest.add(event(100));
    digest.checkEnded('failing check', true);
    const { requests, operations, recentOfFailed } = digest.digest();
    expect(requests).toBe(33);
    expect([...recentOfFailed.keys()]).toEqual(['failing check']);
    expect(recentOfFailed.get('failing check')).toHaveLength(3);
    expect(operations).toEqual([{ operation: 'listBuckets', count: 33, p50Ms: 17, p95Ms: 100, maxMs: 100 }]);
  });
});

describe('reporter choice', () => {
  it('refuses an unknown name, a name every object has, and any reporter beside ndjson on stdout', () => {
    expect(reportersProblem(['table', 'json'], false)).toBeUndefined();
    expect(reportersProblem(['html', 'har', 'ndjson'], true)).toBeUndefined();
    expect(reportersProblem(['ndjson'], false)).toBeUndefined();
    expect(reportersProblem(['toString'], true)).toMatch(/^--reporter toString: unknown reporter/);
    expect(reportersProblem(['json', 'ndjson'], false)).toMatch(
      /^--reporter ndjson,json: without --out the NDJSON stream is stdout, where json would print too/,
    );
    expect(reportersProblem(['ndjson', 'html'], false)).toMatch(/where html would print too/);
  });

  it('a file a reporter appends to starts afresh in each run, and is redacted line by line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-append-'));
    const redactor = createSecretRedactor([SECRET]);
    for (const run of [1, 2]) {
      const context = reportContext(dir, () => undefined, redactor);
      context.appendFile('events.ndjson', `run ${run} ${SECRET}\n`);
      context.appendFile('events.ndjson', `run ${run} again\n`);
      expect(context.written.size).toBe(1);
    }
    expect(readFileSync(join(dir, 'events.ndjson'), 'utf8')).toBe('run 2 [redacted]\nrun 2 again\n');
  });
});

describe('a reporter that cannot write', () => {
  it('ends the run with its ReportWriteError, never as a failure of the check whose request it saw', async () => {
    const out = mkdtempSync(join(tmpdir(), 'conformance-failing-reporter-'));
    const seen: string[] = [];
    const failing: Reporter = {
      name: 'failing',
      observesExchanges: true,
      onEvent(event, context) {
        seen.push(event.type);
        if (event.type === 'exchange') context.appendFile('no-such-dir/events.ndjson', 'x\n');
      },
    };
    const run = runConformance({
      rules: 'WS-1',
      depth: 1,
      reporters: [failing],
      outDir: out,
      print: () => undefined,
    });
    await expect(run).rejects.toThrow(ReportWriteError);
    await expect(run).rejects.toThrow(/^cannot write .*no-such-dir\/events\.ndjson \(ENOENT\)/);
    // The check ran to its end; the error surfaced there, outside its requests.
    expect(seen.filter((type) => type === 'exchange').length).toBeGreaterThan(1);
    expect(seen.at(-1)).toBe('check-end');
  });
});

describe('schema/conformance-events.schema.json', () => {
  it('is generated from the TypeBox definition (regenerate with `pnpm --filter @cloud-api/conformance generate`)', () => {
    expect(readFileSync(eventsSchemaPath, 'utf8')).toBe(renderConformanceEventsSchemaFile());
  });

  it('compiles under strict draft 2020-12 and tells a good line from a bad one', () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats.default(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(eventsSchemaPath, 'utf8')) as object);
    const line = {
      version: 1,
      time: '2026-01-01T00:00:00.000Z',
      runId: 'r',
      type: 'check-start',
      check: { rule: 'WS-1', title: 'WS-1 x' },
    };
    expect(validate(line)).toBe(true);
    expect(validate({ ...line, version: 2 })).toBe(false);
    expect(validate({ ...line, type: 'check-end' })).toBe(false);
    expect(validate({ ...line, extra: true })).toBe(false);
  });
});
