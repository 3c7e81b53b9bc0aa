import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cell,
  commentBody,
  commentMarker,
  findMarkedComment,
  type GateReport,
} from '../../.github/actions/conformance/pr-comment.mjs';

// The contract gate's pull-request comment: the body is a pure function of the CLI's JSON report
// (tested here), and the script posts it once and edits it on every later run (tested against a
// local stand-in for the GitHub API: no request leaves the machine).
const script = fileURLToPath(new URL('../../.github/actions/conformance/pr-comment.mjs', import.meta.url));
const TOKEN = 'ghs_contractGateTestToken0123456789';

const failedReport: GateReport = {
  verdict: 'failed',
  info: {
    runId: 'run-1',
    target: 'staging <img src=x>',
    targetKind: 'real',
    profile: { environment: 'development' },
  },
  totals: {
    passed: 40,
    failed: 3,
    skipped: 0,
    inconclusive: 0,
    incomplete: 0,
    mustFailed: 2,
    shouldFailed: 1,
  },
  rules: [
    { id: 'WS-1', level: 'MUST', title: 'Every request carries workspace_id', state: 'failed' },
    { id: 'AUTH-2', level: 'MUST', title: 'An unknown | invalid token @team returns 401', state: 'failed' },
    { id: 'ASYNC-3', level: 'SHOULD', title: "The delete's record names the VM", state: 'failed' },
    { id: 'ERR-1', level: 'MUST', title: 'Errors return JSON', state: 'passed' },
  ],
  incompleteReasons: [],
  gate: { strict: true, problems: [] },
};

const context = {
  artifactName: 'conformance-gate',
  artifactUrl: 'https://github.example/o/r/actions/runs/7/artifacts/9',
  runUrl: 'https://github.example/o/r/actions/runs/7',
  sha: '0123456789abcdef0123',
};

describe('the pull-request comment body', () => {
  it('carries the marker, the verdict and why, every failed rule and a link to the evidence', () => {
    const body = commentBody(failedReport, context);
    const lines = body.split('\n');
    expect(lines[0]).toBe('<!-- cloud-api-conformance-gate: conformance-gate -->');
    expect(body).toContain('## ❌ Contract gate: failed');
    expect(body).toContain(
      '**FAILED** against `staging &lt;img src=x&gt;` (real, development): 2 MUST rules failed.',
    );
    expect(lines.filter((line) => /^\| [A-Z]+-\d+ \|/.test(line))).toEqual([
      '| WS-1 | MUST | FAIL | Every request carries workspace_id |',
      '| AUTH-2 | MUST | FAIL | An unknown \\| invalid token @\u200bteam returns 401 |',
      "| ASYNC-3 | SHOULD | WARN | The delete's record names the VM |",
    ]);
    expect(body).toContain(`[the \`conformance-gate\` artifact](${context.artifactUrl})`);
    expect(body).toContain('conformance-report.html');
    expect(body).toContain('Run run-1 on 0123456789ab');
  });

  it('says why an incomplete run is not a pass, and what happened when no report was written', () => {
    const incomplete = commentBody(
      {
        ...failedReport,
        verdict: 'incomplete',
        incompleteReasons: ['the run deadline (--deadline 60 s) passed'],
      },
      context,
    );
    expect(incomplete).toContain('## ⚠️ Contract gate: incomplete');
    expect(incomplete).toContain('not a pass: the run deadline (--deadline 60 s) passed.');
    const none = commentBody(undefined, { ...context, verdict: 'bad-input', exitCode: 2 });
    expect(none).toContain('## ⚠️ Contract gate: bad-input (exit 2)');
    expect(none).toContain(`No report was written; [the step's log](${context.runUrl}) says why.`);
  });

  it('never holds the token it is given, wherever it came from', () => {
    const leaky = { ...failedReport, info: { ...failedReport.info, target: `staging ${TOKEN}` } };
    const body = commentBody(leaky, { ...context, secrets: [TOKEN] });
    expect(body).not.toContain(TOKEN);
    expect(body).toContain('staging [redacted]');
  });

  it('keeps untrusted text on one line, without HTML or a mention', () => {
    expect(cell('a\n| <b>@x</b> `y`')).toBe("a \\| &lt;b&gt;@\u200bx&lt;/b&gt; 'y'");
    expect(commentMarker('gate/shard 1of2')).toBe('<!-- cloud-api-conformance-gate: gate_shard_1of2 -->');
  });

  it('finds its own comment among the others by the marker', () => {
    const marker = commentMarker('conformance-gate');
    const comments = [
      { id: 1, body: 'LGTM' },
      { id: 2, body: `${commentMarker('other-shard')}\n...` },
      { id: 3, body: `${marker}\nold verdict` },
    ];
    expect(findMarkedComment(comments, marker)?.id).toBe(3);
    expect(findMarkedComment(comments.slice(0, 2), marker)).toBeUndefined();
  });
});

interface ApiCall {
  readonly method: string;
  readonly path: string;
  readonly authorization: string;
  readonly body: { body?: string } | undefined;
}

describe('the comment script against a stand-in GitHub API', () => {
  let api: Server;
  let apiUrl: string;
  const calls: ApiCall[] = [];
  const comments: { id: number; body: string }[] = [{ id: 1, body: 'Looks good' }];
  let refuse = false;
  const dir = mkdtempSync(join(tmpdir(), 'contract-gate-comment-'));
  const eventPath = join(dir, 'event.json');
  writeFileSync(eventPath, JSON.stringify({ pull_request: { number: 12 } }));
  writeFileSync(join(dir, 'conformance-report.json'), JSON.stringify(failedReport));

  const read = (req: IncomingMessage): Promise<string> =>
    new Promise((resolve) => {
      let text = '';
      req.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      req.on('end', () => resolve(text));
    });

  beforeAll(async () => {
    api = createServer(async (req, res) => {
      const text = await read(req);
      const body = text ? (JSON.parse(text) as { body?: string }) : undefined;
      const path = req.url ?? '';
      calls.push({ method: req.method ?? '', path, authorization: req.headers.authorization ?? '', body });
      if (refuse) return res.writeHead(403, { 'content-type': 'application/json' }).end('{"message":"no"}');
      res.setHeader('content-type', 'application/json');
      if (req.method === 'GET') return res.end(JSON.stringify(comments));
      if (req.method === 'POST') {
        comments.push({ id: 50, body: body?.body ?? '' });
        return res.writeHead(201).end(JSON.stringify({ id: 50 }));
      }
      const id = Number(path.split('/').at(-1));
      const comment = comments.find((candidate) => candidate.id === id);
      if (comment) comment.body = body?.body ?? '';
      return res.end(JSON.stringify({ id }));
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    const address = api.address();
    apiUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });

  afterAll(async () => {
    api.closeAllConnections();
    await new Promise<void>((resolve) => api.close(() => resolve()));
  });

  function runScript(env: Record<string, string>): Promise<{ code: number | null; stdout: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [script], {
        env: {
          PATH: process.env.PATH ?? '',
          GITHUB_API_URL: apiUrl,
          GITHUB_REPOSITORY: 'owner/app',
          GITHUB_SERVER_URL: 'https://github.example',
          GITHUB_RUN_ID: '7',
          GITHUB_EVENT_PATH: eventPath,
          GATE_GITHUB_TOKEN: TOKEN,
          GATE_VERDICT: 'failed',
          GATE_EXIT_CODE: '1',
          REPORT_DIR: dir,
          ARTIFACT_NAME: 'conformance-gate',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      child.on('close', (code) => resolve({ code, stdout }));
    });
  }

  it('posts the comment on the first run, and edits that same comment on the next', async () => {
    const first = await runScript({});
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('pull request comment created (50)');
    const second = await runScript({ ARTIFACT_URL: 'https://github.example/o/r/actions/runs/8/artifacts/3' });
    expect(second.stdout).toContain('pull request comment updated (50)');
    expect(calls.map((call) => `${call.method} ${call.path.split('?')[0]}`)).toEqual([
      'GET /repos/owner/app/issues/12/comments',
      'POST /repos/owner/app/issues/12/comments',
      'GET /repos/owner/app/issues/12/comments',
      'PATCH /repos/owner/app/issues/comments/50',
    ]);
    expect(calls.every((call) => call.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(comments).toHaveLength(2);
    expect(comments[1]?.body).toContain('https://github.example/o/r/actions/runs/8/artifacts/3');
    for (const call of calls) expect(JSON.stringify(call.body ?? {})).not.toContain(TOKEN);
  });

  it('a token that may not comment (a fork) is a warning, never a failed job', async () => {
    refuse = true;
    const refused = await runScript({});
    refuse = false;
    expect(refused.code).toBe(0);
    expect(refused.stdout).toMatch(
      /^::warning title=Contract gate::could not write the pull request comment \(GET \/repos\/owner\/app\/issues\/12\/comments answered 403\)/m,
    );
    expect(refused.stdout).not.toContain(TOKEN);
  });

  it('outside a pull request, or without a token, it posts nothing', async () => {
    const before = calls.length;
    const noPull = join(dir, 'push.json');
    writeFileSync(noPull, JSON.stringify({ ref: 'refs/heads/main' }));
    expect((await runScript({ GITHUB_EVENT_PATH: noPull })).stdout).toContain('no comment');
    expect((await runScript({ GATE_GITHUB_TOKEN: '' })).stdout).toContain('no comment');
    expect(calls.length).toBe(before);
  });
});
