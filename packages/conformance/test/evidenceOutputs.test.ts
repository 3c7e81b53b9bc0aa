import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsSchemaPath } from '../src/generateArtifacts.js';
import { secretForms } from '../src/secrets/secretRedactor.js';
import { type LocalServer, listenLocally } from './localServer.js';
import { type CliRun, runCli } from './runCli.js';

// The "done when": a failing run against an independent server (hand-written here, not
// the sandbox) with every evidence reporter leaves the four outputs, each valid against its
// schema, and no byte of any output, stdout or stderr holds a token of the profile.

const require = createRequire(import.meta.url);
const HOSTILE = "<script>alert('evidence')</script>";
const tokens = {
  EVIDENCE_TOKEN_FULL: `svc_dev_key_${randomBytes(18).toString('base64url')}`,
  EVIDENCE_TOKEN_READER: `svc_dev_key_${randomBytes(18).toString('base64url')}`,
};
const seenAuthorization = new Set<string>();

/**
 * A server that accepts any token and any workspace_id (so AUTH-2 and WS-1 fail), and echoes what
 * it was sent, the credential included, in a header, in base64 and in the body, beside a script
 * tag: the reports must mask the one and escape the other.
 */
function independentServer(): Promise<LocalServer> {
  return listenLocally((req, res) => {
    const authorization = req.headers.authorization ?? '';
    seenAuthorization.add(authorization);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const echo = { authorization, url: req.url, note: HOSTILE };
    const body = req.method === 'GET' && !/\/[a-z]+-[0-9a-f]+$/.test(path) ? [echo] : { id: 'x-1', ...echo };
    res
      .writeHead(200, {
        'content-type': 'application/json',
        'x-echo-authorization': authorization,
        'x-echo-base64': Buffer.from(authorization).toString('base64'),
      })
      .end(JSON.stringify(body));
  });
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

function harValidator() {
  const ajv = new Ajv.default({ strict: false, allErrors: true });
  addFormats.default(ajv);
  // har-schema is written in draft-06.
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json') as object);
  for (const schema of Object.values(require('har-schema') as Record<string, object>)) ajv.addSchema(schema);
  const validate = ajv.getSchema('har.json#');
  if (!validate) throw new Error('har-schema has no har.json#');
  return validate;
}

function eventsValidator() {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats.default(ajv);
  return ajv.compile(JSON.parse(readFileSync(eventsSchemaPath, 'utf8')) as object);
}

interface HarEntry {
  comment: string;
  _rule: string;
  request: { url: string; headers: { name: string; value: string }[] };
  response: { status: number; headers: { name: string; value: string }[]; content: { text: string } };
}

let server: LocalServer;
let out: string;
let run: CliRun;

beforeAll(async () => {
  server = await independentServer();
  const dir = mkdtempSync(join(tmpdir(), 'conformance-evidence-'));
  out = join(dir, 'reports');
  const profile = join(dir, 'independent.json');
  writeFileSync(
    profile,
    JSON.stringify({
      name: `independent ${HOSTILE}`,
      baseUrl: `${server.origin}/v1`,
      environment: 'development',
      identities: {
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a profile's ${VAR} reference, not a template
        full: { token: '${EVIDENCE_TOKEN_FULL}', scopes: 'all', workspaces: 'all' },
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a profile's ${VAR} reference, not a template
        reader: { token: '${EVIDENCE_TOKEN_READER}', scopes: ['vm.read'], workspaces: ['1042'] },
      },
      workspaces: { primary: '1042', secondary: '1043' },
      billing: { skuCode: 'cloud-vm-standard-2' },
    }),
  );
  run = await runCli(
    [
      '--target',
      profile,
      '--rules',
      'AUTH-2,WS-1,SCOPE-1',
      '--depth',
      '3',
      '--seed',
      '5',
      '--reporter',
      'json,html,har,ndjson',
      '--out',
      out,
    ],
    { env: { ...process.env, ...tokens }, timeoutMs: 100_000 },
  );
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('a failing run against an independent server, with --reporter json,html,har,ndjson --out DIR', () => {
  it('exits 1 and leaves the four outputs, each named on stdout', () => {
    expect(run.code, run.stderr.slice(-2000)).toBe(1);
    for (const [label, file] of [
      ['JSON report', 'conformance-report.json'],
      ['HTML report', 'conformance-report.html'],
      ['HAR', 'conformance.har'],
      ['NDJSON events', 'conformance-events.ndjson'],
    ]) {
      expect(existsSync(join(out, file as string)), file).toBe(true);
      expect(run.stdout).toContain(`${label}: ${join(out, file as string)}`);
    }
    const report = JSON.parse(readFileSync(join(out, 'conformance-report.json'), 'utf8')) as {
      verdict: string;
      rules: { id: string; state: string }[];
    };
    expect(report.verdict).toBe('failed');
    expect(report.rules.filter((rule) => rule.state === 'failed').map((rule) => rule.id)).toEqual(
      expect.arrayContaining(['WS-1', 'AUTH-2']),
    );
  });

  it('the NDJSON stream: every line valid against the published schema, in run order', () => {
    const validate = eventsValidator();
    const lines = readFileSync(join(out, 'conformance-events.ndjson'), 'utf8').trimEnd().split('\n');
    const events = lines.map((line) => JSON.parse(line) as { type: string; [key: string]: unknown });
    for (const event of events) expect(validate(event), JSON.stringify(validate.errors)).toBe(true);
    expect(events[0]?.type).toBe('run-start');
    expect(events.at(-1)).toMatchObject({ type: 'run-end', verdict: 'failed', exitCode: 1 });
    expect(new Set(events.map((event) => event.runId)).size).toBe(1);
    const ends = events.filter((event) => event.type === 'check-end');
    expect(ends.find((event) => (event.check as { rule: string }).rule === 'WS-1')).toMatchObject({
      state: 'failed',
      failures: [expect.objectContaining({ replayCommand: expect.stringContaining('--replay') })],
    });
    expect(events.filter((event) => event.type === 'exchange').length).toBeGreaterThan(10);
  });

  it('the HAR: valid HAR 1.2 with every exchange of the stream, each naming its rule, credentials masked', () => {
    const validate = harValidator();
    const har = JSON.parse(readFileSync(join(out, 'conformance.har'), 'utf8')) as {
      log: { version: string; entries: HarEntry[]; pages: { title: string }[] };
    };
    expect(validate(har), JSON.stringify(validate.errors)).toBe(true);
    expect(har.log.version).toBe('1.2');
    const exchanges = readFileSync(join(out, 'conformance-events.ndjson'), 'utf8')
      .split('\n')
      .filter((line) => line.includes('"type":"exchange"'));
    expect(har.log.entries).toHaveLength(exchanges.length);
    for (const entry of har.log.entries)
      expect(entry.comment).toMatch(new RegExp(`^${entry._rule}: ${entry._rule} `));
    expect(har.log.pages.map((page) => page.title.split(' ')[0])).toEqual(
      expect.arrayContaining(['AUTH-2', 'WS-1', 'SCOPE-1']),
    );
    // The server echoed each credential back; the HAR shows the scheme and a mask in its place.
    const echoed = har.log.entries.flatMap((entry) =>
      entry.response.headers.filter((header) => header.name === 'x-echo-authorization'),
    );
    expect(echoed.some((header) => header.value === 'Bearer [redacted]')).toBe(true);
    const sent = har.log.entries.flatMap((entry) =>
      entry.request.headers.filter((header) => header.name === 'authorization'),
    );
    expect(sent.some((header) => header.value === 'Bearer [redacted]')).toBe(true);
  });

  it('the HTML report escapes what the target sent: its <script> is text', () => {
    const html = readFileSync(join(out, 'conformance-report.html'), 'utf8');
    expect(html.match(/<script\b/g)).toHaveLength(1);
    expect(html).toContain('&lt;script&gt;alert(&#39;evidence&#39;)&lt;/script&gt;');
    expect(html).toContain('independent &lt;script&gt;');
  });

  it('no output file, nor stdout, nor stderr holds any form of any token of the profile', () => {
    // The tokens did go out, and came back in every answer: the masking was put to the test.
    for (const token of Object.values(tokens))
      expect([...seenAuthorization].some((value) => value.includes(token))).toBe(true);
    const outputs = [
      ['stdout', run.stdout],
      ['stderr', run.stderr],
      ...filesUnder(out).map((file) => [file, readFileSync(file, 'utf8')]),
    ] as const;
    expect(outputs.length).toBeGreaterThanOrEqual(6);
    for (const token of Object.values(tokens))
      for (const form of secretForms(token))
        for (const [where, text] of outputs)
          expect(text.includes(form), `${where} holds a form of a token`).toBe(false);
  });
});

describe('--reporter ndjson without --out', () => {
  it('streams the events on stdout, one valid line each and nothing else; progress stays on stderr', async () => {
    const streamed = await runCli(['--rules', 'WS-1', '--depth', '1', '--reporter', 'ndjson'], {
      timeoutMs: 60_000,
    });
    expect(streamed.code, streamed.stderr).toBe(0);
    const validate = eventsValidator();
    const lines = streamed.stdout.trimEnd().split('\n');
    for (const line of lines) expect(validate(JSON.parse(line)), line).toBe(true);
    expect(lines.map((line) => (JSON.parse(line) as { type: string }).type)).toEqual([
      'run-start',
      'check-start',
      ...Array(lines.length - 4).fill('exchange'),
      'check-end',
      'run-end',
    ]);
    expect(streamed.stderr).toContain('passed  WS-1');
  });
});
