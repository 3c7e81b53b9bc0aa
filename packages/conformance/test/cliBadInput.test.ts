import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listenLocally } from './localServer.js';
import { runCli } from './runCli.js';

const dir = mkdtempSync(join(tmpdir(), 'conformance-bad-input-'));
const TOKEN = 'svc_dev_key_badinput_full';
const PRODUCTION_TOKEN = 'svc_prod_key_badinput_full';
const ENV_TOKEN = 'svc_dev_key_badinput_from_env';
const SET_VARIABLE = 'CONFORMANCE_BADINPUT_SET_TOKEN';
const UNSET_VARIABLE = 'CONFORMANCE_BADINPUT_UNSET_TOKEN';
const NEWLINE_VARIABLE = 'CONFORMANCE_BADINPUT_NEWLINE_TOKEN';

function profile(overrides: { environment?: string; baseUrl?: string; token?: string; extra?: string } = {}) {
  return [
    'name: bad-input',
    `baseUrl: ${overrides.baseUrl ?? 'http://127.0.0.1:9/v1'}`,
    `environment: ${overrides.environment ?? 'development'}`,
    'identities:',
    `  full: { token: "${overrides.token ?? TOKEN}", scopes: all, workspaces: all }`,
    'workspaces: { primary: "1042", secondary: "1043" }',
    'billing: { skuCode: cloud-vm-standard-2 }',
    ...(overrides.extra ? [overrides.extra] : []),
    '',
  ].join('\n');
}

/** A replay file as a failure writes it, with `fields` changed. */
function replay(fields: Record<string, unknown>): string {
  return JSON.stringify({
    kind: 'conformance-replay',
    rule: 'WS-1',
    test: 'WS-1 rejects a request without workspace_id on every operation (any 4xx)',
    seed: 7,
    path: '0:1',
    depth: 5,
    ...fields,
  });
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const cases: readonly { name: string; args: string[]; says: RegExp }[] = [
  {
    name: 'a --target file that does not exist',
    args: ['--target', join(dir, 'missing.yaml')],
    says: /Profile file .*missing\.yaml does not exist\. Pass --target prism, --target sandbox, or a path to a profile \(see \/\S+\/profiles\/staging\.example\.yaml\)/,
  },
  {
    name: 'a profile that is not valid YAML',
    args: ['--target', file('broken.yaml', `${profile()}identities: [unclosed\n`)],
    says: /broken\.yaml is not valid YAML or JSON: .*\. Fix the syntax there and run again\./,
  },
  {
    name: 'a profile failing the schema',
    args: ['--target', file('misspelt.yaml', profile({ extra: 'mutation: true' }))],
    says: /Invalid target profile .*misspelt\.yaml: \(root\): unknown field "mutation" \(check its spelling/,
  },
  {
    name: 'a $VAR reference to an unset variable',
    args: [
      '--target',
      file(
        'unset-variable.yaml',
        profile({
          extra: `revokedToken: "\${${SET_VARIABLE}}"\notherEnvironmentToken: "\${${UNSET_VARIABLE}}"`,
        }),
      ),
    ],
    says: new RegExp(`otherEnvironmentToken: environment variable ${UNSET_VARIABLE} is not set\\. Export it`),
  },
  {
    name: 'an unknown option',
    args: ['--colour', 'always'],
    says: /unknown option '--colour'\. Run "node \/\S+\/dist\/cli\.js --help" for the options\./,
  },
  {
    name: '--depth abc',
    args: ['--depth', 'abc'],
    says: /'abc' is invalid\. --depth abc: must be an integer from 1 to 10000 \(runs per property\)/,
  },
  {
    name: '--depth 0',
    args: ['--depth', '0'],
    says: /'0' is invalid\. --depth 0: must be an integer from 1 to 10000/,
  },
  {
    name: '--concurrency 33',
    args: ['--concurrency', '33'],
    says: /'33' is invalid\. --concurrency 33: must be an integer from 1 to 32 \(requests in flight\)/,
  },
  {
    name: '--rules matching no rule',
    args: ['--rules', 'WS-1,NOPE-*'],
    says: /--rules: "NOPE-\*" matches no rule\. Known rules: WS-1, /,
  },
  {
    name: '--seed -1',
    args: ['--seed', '-1'],
    says: /'-1' is invalid\. --seed -1: must be an integer from 0 to 2147483647/,
  },
  {
    name: '--seed abc',
    args: ['--seed', 'abc'],
    says: /'abc' is invalid\. --seed abc: must be an integer from 0 to/,
  },
  {
    name: '--reporter xml',
    args: ['--reporter', 'table,xml'],
    says: /--reporter xml: unknown reporter; use one of table, json, junit, markdown, html, har, ndjson$/,
  },
  {
    name: '--reporter constructor (a name every object has, not a reporter)',
    args: ['--reporter', 'constructor'],
    says: /--reporter constructor: unknown reporter; use one of table/,
  },
  {
    name: '--reporter table,ndjson without --out (both would print on stdout)',
    args: ['--reporter', 'table,ndjson'],
    says: /--reporter ndjson,table: without --out the NDJSON stream is stdout, where table would print too; pass --out DIR/,
  },
  { name: '--shard 3/2', args: ['--shard', '3/2'], says: /--shard 3\/2: use i\/n with 1 <= i <= n/ },
  {
    name: '--replay with a missing file',
    args: ['--replay', join(dir, 'missing-replay.json')],
    says: /--replay .*missing-replay\.json: no such file; pass the file named after "replay:"/,
  },
  {
    name: '--replay with a corrupt file',
    args: ['--replay', file('corrupt-replay.json', '{"kind": "conformance-replay", "seed": 3,')],
    says: /--replay .*corrupt-replay\.json: not JSON, so not a replay file; pass the file/,
  },
  {
    name: '--replay with JSON that is not a replay file',
    args: ['--replay', file('other.json', '{"kind": "conformance-report", "rules": []}')],
    says: /--replay .*other\.json: not a replay file written by a conformance failure/,
  },
  {
    name: 'a production profile without --allow-production',
    args: [
      '--target',
      file(
        'production.yaml',
        profile({ environment: 'production', token: PRODUCTION_TOKEN, extra: 'allowProduction: true' }),
      ),
    ],
    says: /Refusing to run against production profile "bad-input": it runs only when the command line passes --allow-production/,
  },
  {
    name: '--out pointing at a file',
    args: ['--out', file('not-a-directory.txt', 'x')],
    says: /--out .*not-a-directory\.txt: a file stands there .*not a directory\. Pass a directory/,
  },
  {
    name: '--out under /proc',
    args: ['--out', '/proc/conformance-reports'],
    says: /--out \/proc\/conformance-reports: \/proc is a kernel or device file system, not a place for reports/,
  },
  {
    name: 'a profile whose YAML alias refers to itself',
    args: ['--target', file('alias-loop.yaml', `${profile()}resources: &loop\n  gpuVmIds: *loop\n`)],
    says: /alias-loop\.yaml: resources\.gpuVmIds refers to itself through a YAML alias/,
  },
  {
    name: 'a --target that is a directory',
    args: ['--target', dir],
    says: /Profile .* is a directory\. Pass the path of a profile file/,
  },
  {
    name: "--rules ''",
    args: ['--rules', ''],
    says: /--rules "": names no rule\. Pass rule IDs or patterns/,
  },
  {
    name: '--depth beyond any sensible run',
    args: ['--depth', '1000000'],
    says: /--depth 1000000: must be an integer from 1 to 10000/,
  },
  {
    name: '--replay naming an unknown rule',
    args: ['--replay', file('unknown-rule.json', replay({ rule: 'NOPE-9', test: 'NOPE-9 anything' }))],
    says: /--replay .*unknown-rule\.json: rule "NOPE-9" is not in this suite's catalogue/,
  },
  {
    name: '--replay naming a check this suite does not have',
    args: ['--replay', file('unknown-check.json', replay({ test: 'WS-1 a check from another version' }))],
    says: /--replay .*unknown-check\.json: check "WS-1 a check from another version" is not in this suite/,
  },
  {
    name: '--replay with a path that is not a fast-check path',
    args: ['--replay', file('bad-path.json', replay({ path: '../../etc' }))],
    says: /--replay .*bad-path\.json: path "\.\.\/\.\.\/etc" is not a fast-check path/,
  },
  {
    name: '--replay with depth -5',
    args: ['--replay', file('bad-depth.json', replay({ depth: -5 }))],
    says: /--replay .*bad-depth\.json: depth -5 is not an integer from 1 to 10000/,
  },
  {
    name: '--replay with seed 1e308',
    args: ['--replay', file('bad-seed.json', replay({ seed: 1e308 }))],
    says: /--replay .*bad-seed\.json: seed 1e\+308 is not a 32-bit integer/,
  },
  {
    name: 'a baseUrl not ending in /v1',
    args: ['--target', file('no-version.yaml', profile({ baseUrl: 'http://127.0.0.1:9/api' }))],
    says: /baseUrl: "http:\/\/127\.0\.0\.1:9\/api" must be an http\(s\) URL ending with \/v1/,
  },
  {
    name: '--reporter with no name',
    args: ['--reporter', ''],
    says: /option '--reporter <name>' argument '' is invalid\. name one of table, json/,
  },
  {
    name: 'a token from a variable ending in a newline',
    args: ['--target', file('newline-token.yaml', profile({ token: `\${${NEWLINE_VARIABLE}}` }))],
    says: /identities\.full\.token: contains whitespace or a control character \(a stray newline/,
  },
  {
    name: 'a revoked token without the environment prefix (AUTH-3 would pass on a malformed token)',
    args: ['--target', file('bare-revoked.yaml', profile({ extra: 'revokedToken: "abc-revoked"' }))],
    says: /revokedToken: must be a revoked token of this environment \(prefix svc_dev_key_\)/,
  },
  {
    name: '--sandbox-fault with a profile (it would change nothing, and the run would pass)',
    args: ['--target', file('with-fault.yaml', profile()), '--sandbox-fault', 'accept-revoked-token'],
    says: /--sandbox-fault starts the embedded sandbox with a fault or a variant; they do not apply to --target .*with-fault\.yaml/,
  },
  {
    name: 'an unknown --sandbox-fault',
    args: ['--sandbox-fault', 'accept-revoked'],
    says: /--sandbox-fault "accept-revoked" is not in the sandbox's catalogue \(did you mean accept-revoked-token\?\); the \d+ ids are listed by `cloud-api-sandbox --list-faults`/,
  },
  {
    name: 'an unknown --sandbox-variant',
    args: ['--sandbox-variant', 'nope'],
    says: /--sandbox-variant "nope" is not in the sandbox's catalogue; the \d+ ids are listed by `cloud-api-sandbox --list-variants`/,
  },
];

describe.concurrent('CLI bad input: one clear line, exit code 2, no stack trace, no token', () => {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    [SET_VARIABLE]: ENV_TOKEN,
    [NEWLINE_VARIABLE]: `${ENV_TOKEN}_newline\n`,
  };
  delete env[UNSET_VARIABLE];

  it.each(cases)('$name', async ({ args, says }) => {
    const run = await runCli(args, { env, timeoutMs: 30_000 });
    const lines = run.stderr.split('\n').filter((line) => line.trim() !== '');
    expect(lines).toEqual([expect.stringMatching(/^conformance: /)]);
    expect(lines[0]).toMatch(says);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    for (const secret of [TOKEN, PRODUCTION_TOKEN, ENV_TOKEN, 'badinput_full', 'badinput_from_env'])
      expect(run.stderr).not.toContain(secret);
  });
});

describe('bad input is refused before any request is sent', () => {
  it('a run refused at the preflight leaves no --out directory it made (nor its parents)', async () => {
    const parent = join(dir, 'made-by-a-refused-run');
    const run = await runCli(
      ['--target', file('refused.yaml', profile()), '--out', join(parent, 'reports')],
      {
        timeoutMs: 30_000,
      },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/preflight: cannot reach http:\/\/127\.0\.0\.1:9\/v1: connection refused/);
    expect(existsSync(parent)).toBe(false);
  });

  it("a run refused at the preflight leaves an earlier run's reports in --out where they were", async () => {
    const out = join(dir, 'earlier-run');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'conformance-report.json'), '{"kind":"conformance-report"}\n');
    const run = await runCli(['--target', file('refused-again.yaml', profile()), '--out', out], {
      timeoutMs: 30_000,
    });
    expect(run.code).toBe(2);
    expect(readFileSync(join(out, 'conformance-report.json'), 'utf8')).toBe(
      '{"kind":"conformance-report"}\n',
    );
    expect(existsSync(join(out, 'previous-runs'))).toBe(false);
  });

  it('--out pointing at a file: exit 2, and the target never hears from the run', async () => {
    const requests: string[] = [];
    const server = await listenLocally((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    try {
      const run = await runCli(
        [
          '--target',
          file('listening.yaml', profile({ baseUrl: `${server.origin}/v1` })),
          '--out',
          file('out-is-a-file.txt', 'x'),
        ],
        { timeoutMs: 30_000 },
      );
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/--out .*out-is-a-file\.txt: a file stands there/);
      expect(requests).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('a report that cannot be written', () => {
  it('is one line naming the file and the reason, exit 2, and the other reports are still written', async () => {
    const out = mkdtempSync(join(tmpdir(), 'conformance-unwritable-report-'));
    // A link into a directory that does not exist: the HTML report cannot be created there.
    symlinkSync(join(out, 'no-such-dir', 'report.html'), join(out, 'conformance-report.html'));
    const run = await runCli(['--rules', 'WS-1', '--depth', '1', '--reporter', 'html,json', '--out', out], {
      timeoutMs: 60_000,
    });
    expect(run.code).toBe(2);
    const lines = run.stderr.split('\n').filter((line) => line.startsWith('conformance: '));
    expect(lines).toEqual([
      `conformance: cannot write ${join(out, 'conformance-report.html')} (ENOENT). Pass --out a directory you can write to, with room for the reports.`,
    ]);
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(existsSync(join(out, 'conformance-report.json'))).toBe(true);
  });
});

describe('--help', () => {
  it('says a run is read-only without mutations: true, and names an example profile the package ships', async () => {
    const run = await runCli(['--help'], { timeoutMs: 30_000 });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/read-only unless the profile sets mutations: true/);
    const example = /see (profiles\/\S+\.yaml) in @cloud-api\/conformance/.exec(run.stdout)?.[1];
    expect(example && existsSync(join(import.meta.dirname, '..', example))).toBe(true);
  });
});
