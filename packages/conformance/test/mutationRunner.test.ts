import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runMutants } from '../src/mutants/mutationRun.js';
import { cliPath } from './runCli.js';

const mutantsCli = fileURLToPath(new URL('../dist/mutantsCli.js', import.meta.url));

/**
 * A stand-in for the conformance CLI whose verdict the test decides: for each mutant id it
 * writes a JSON report in which the listed rules failed (none = the suite noticed nothing).
 */
function fakeSuiteCli(failedRulesById: Record<string, string[]>): string {
  const file = join(mkdtempSync(join(tmpdir(), 'conformance-fake-suite-')), 'fake-cli.mjs');
  writeFileSync(
    file,
    `import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
const args = process.argv.slice(2);
const valueOf = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const id = valueOf('--sandbox-fault') ?? valueOf('--sandbox-variant');
const failed = (${JSON.stringify(failedRulesById)})[id] ?? [];
const rules = failed.map((rule) => ({ id: rule, level: 'MUST', title: rule, state: 'failed', tests: [], skipReasons: [] }));
writeFileSync(join(valueOf('--out'), 'conformance-report.json'), JSON.stringify({ kind: 'conformance-report', rules, runErrors: [] }));
process.exitCode = failed.length > 0 ? 1 : 0;
`,
  );
  return file;
}

const FAULT = 'accept-zero-workspace-id';
const VARIANT = 'workspace-id-422';

function runMutantsCli(failedRulesById: Record<string, string[]>, only = `${FAULT},${VARIANT}`) {
  const result = spawnSync(
    process.execPath,
    [mutantsCli, '--only', only, '--suite-cli', fakeSuiteCli(failedRulesById), '--concurrency', '2'],
    { encoding: 'utf8', timeout: 30_000 },
  );
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('mutation runner exit code', () => {
  it('exits 0 when every fault is caught and every variant passes', () => {
    const run = runMutantsCli({ [FAULT]: ['WS-2'] });
    expect(run.stdout).toMatch(/Faults caught: 1\/1 .* variants passing: 1\/1/);
    expect(run.code).toBe(0);
  });

  it('exits non-zero when a fault is not caught', () => {
    const run = runMutantsCli({});
    expect(run.stdout).toMatch(new RegExp(`${FAULT}\\s+WS-2\\s+NO`));
    expect(run.stdout).toMatch(/Faults caught: 0\/1/);
    expect(run.code).toBe(1);
  });

  it('exits non-zero when a correct variant fails a rule', () => {
    const run = runMutantsCli({ [FAULT]: ['WS-2'], [VARIANT]: ['WS-2'] });
    expect(run.stdout).toMatch(new RegExp(`${VARIANT}\\s+NO\\s+WS-2`));
    expect(run.stdout).toMatch(/variants passing: 0\/1/);
    expect(run.code).toBe(1);
  });

  it('refuses an --only id that names no fault or variant instead of passing with nothing run', () => {
    const run = runMutantsCli({}, `${FAULT},accept-zero-workspace-idd`);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/--only: no fault or variant named "accept-zero-workspace-idd"/),
    ]);
  });
});

describe('mutation runner against the real suite', () => {
  it('catches a fault by its own rule and lets a correct variant pass', async () => {
    const summary = await runMutants({ only: [FAULT, VARIANT], depth: 3, cliPath });
    const fault = summary.results.find((r) => r.id === FAULT);
    const variant = summary.results.find((r) => r.id === VARIANT);
    expect(fault?.ok).toBe(true);
    expect(fault?.failedRules).toContain('WS-2');
    expect(variant?.ok).toBe(true);
    expect(summary.exitCode).toBe(0);
  });
});
