import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, inject, test } from 'vitest';
import { appEnv, RunningCommand } from './commandRun.js';

const run = promisify(execFile);
const { app } = inject('packedInstall');

/** Runs an ES module snippet in the installed app and returns what it printed. */
async function inApp(source: string): Promise<string> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', source], { cwd: app });
  return stdout.trim();
}

describe('one target profile definition, as npm installs it', () => {
  test('the schema export of @cloud-api/target-profile is the file @cloud-api/conformance exports', async () => {
    const [own, conformance] = JSON.parse(
      await inApp(
        "const file = '/schema/target-profile.schema.json';\nconsole.log(JSON.stringify(['@cloud-api/target-profile', '@cloud-api/conformance'].map((name) => import.meta.resolve(name + file))));",
      ),
    ) as [string, string];
    expect(own).toMatch(/node_modules\/@cloud-api\/target-profile\/schema\/target-profile\.schema\.json$/);
    expect(readFileSync(fileURLToPath(conformance), 'utf8')).toBe(readFileSync(fileURLToPath(own), 'utf8'));
  });

  test('its validator runs from the installed package, with the scopes of the installed spec', async () => {
    const output = JSON.parse(
      await inApp(
        [
          "import { profileProblems, scopeNames } from '@cloud-api/target-profile';",
          "const profile = { name: 'x', baseUrl: 'http://127.0.0.1:1/v1', environment: 'development', identities: { a: { token: 'svc_dev_key_x', scopes: ['vm.read'], workspaces: 'all' } }, workspaces: { primary: '1', secondary: '2' }, billing: { skuCode: 's' }, concurrency: 4, strict: true, maxResponseBytes: 2048 };",
          'console.log(JSON.stringify({ scopes: scopeNames().length, valid: profileProblems(profile), invalid: profileProblems({ ...profile, concurrency: 0 }) }));',
        ].join('\n'),
      ),
    ) as { scopes: number; valid: string[]; invalid: string[] };
    expect(output).toEqual({ scopes: 16, valid: [], invalid: ['concurrency: must be >= 1'] });
  });

  test("the installed sandbox starts from the installed conformance package's staging example", async () => {
    const example = join(
      app,
      'node_modules',
      '@cloud-api',
      'conformance',
      'profiles',
      'staging.example.yaml',
    );
    const names = [...readFileSync(example, 'utf8').matchAll(/\$\{([A-Z0-9_]+)\}/g)].map((m) => m[1] ?? '');
    expect(names).toContain('STAGING_TOKEN_FULL');
    const variables = Object.fromEntries(
      names.map((name) => [
        name,
        `${name.startsWith('PRODUCTION') ? 'svc_prod_key_' : 'svc_dev_key_'}dist_${name.toLowerCase()}`,
      ]),
    );
    const sandbox = new RunningCommand(
      `npx cloud-api-sandbox --profile ${example}`,
      app,
      appEnv(variables),
      60_000,
    );
    let listening: RegExpMatchArray | undefined;
    try {
      listening = await sandbox.waitFor(/listening at http:\/\/127\.0\.0\.1:\d+\/v1/);
    } finally {
      const result = await sandbox.interrupt();
      expect(result.stdout + result.stderr, 'a token was printed').not.toMatch(/svc_/);
    }
    expect(listening).toBeDefined();
  });
});
