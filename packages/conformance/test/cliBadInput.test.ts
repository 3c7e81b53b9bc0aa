import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.js';

const dir = mkdtempSync(join(tmpdir(), 'conformance-bad-input-'));
const TOKEN = 'svc_dev_key_badinput_full';
const PRODUCTION_TOKEN = 'svc_prod_key_badinput_full';
const ENV_TOKEN = 'svc_dev_key_badinput_from_env';
const SET_VARIABLE = 'CONFORMANCE_BADINPUT_SET_TOKEN';
const UNSET_VARIABLE = 'CONFORMANCE_BADINPUT_UNSET_TOKEN';

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

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const cases: readonly { name: string; args: string[]; says: RegExp }[] = [
  {
    name: 'a --target file that does not exist',
    args: ['--target', join(dir, 'missing.yaml')],
    says: /Profile file .*missing\.yaml does not exist\. Pass --target prism, --target sandbox, or a path/,
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
    says: /unknown option '--colour'\. Run "conformance --help" for the options\./,
  },
  {
    name: '--depth abc',
    args: ['--depth', 'abc'],
    says: /'abc' is invalid\. --depth must be a positive integer/,
  },
  { name: '--depth 0', args: ['--depth', '0'], says: /'0' is invalid\. --depth must be a positive integer/ },
  {
    name: '--rules matching no rule',
    args: ['--rules', 'WS-1,NOPE-*'],
    says: /--rules: "NOPE-\*" matches no rule\. Known rules: WS-1, /,
  },
  {
    name: '--seed -1',
    args: ['--seed', '-1'],
    says: /'-1' is invalid\. --seed must be an integer from 0 to/,
  },
  {
    name: '--seed abc',
    args: ['--seed', 'abc'],
    says: /'abc' is invalid\. --seed must be an integer from 0 to/,
  },
  {
    name: '--reporter xml',
    args: ['--reporter', 'table,xml'],
    says: /--reporter xml: unknown reporter; use one of table, json, junit/,
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
    name: 'a baseUrl not ending in /v1',
    args: ['--target', file('no-version.yaml', profile({ baseUrl: 'http://127.0.0.1:9/api' }))],
    says: /baseUrl: "http:\/\/127\.0\.0\.1:9\/api" must be an http\(s\) URL ending with \/v1/,
  },
];

describe.concurrent('CLI bad input: one clear line, exit code 2, no stack trace, no token', () => {
  const env: NodeJS.ProcessEnv = { ...process.env, [SET_VARIABLE]: ENV_TOKEN };
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
