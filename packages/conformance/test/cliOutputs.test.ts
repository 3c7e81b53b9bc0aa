import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.js';

const version = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

describe('CLI outputs a user can rely on', () => {
  it('--version prints the suite version and exits 0', async () => {
    const run = await runCli(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(version);
  });

  it('--reporter json without --out prints the JSON report on stdout, and leaves no temporary directory', async () => {
    // A temporary directory of its own, so no other test's runs show up in it.
    const privateTmp = mkdtempSync(join(tmpdir(), 'conformance-outputs-'));
    const run = await runCli(['--rules', 'WS-1,RESP-3', '--depth', '2', '--reporter', 'json'], {
      env: { TMPDIR: privateTmp },
    });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { kind: string; verdict: string; rules: { id: string }[] };
    expect(report.kind).toBe('conformance-report');
    expect(report.verdict).toBe('passed');
    expect(report.rules.map((rule) => rule.id)).toEqual(['WS-1', 'RESP-3']);
    expect(readdirSync(privateTmp)).toEqual([]);
    // Without the table, the terminal still gets the verdict, on stderr beside the progress lines.
    expect(run.stderr).toMatch(/ {2}Rules: 2 passed, .*\n {2}Verdict: PASSED\n$/);
  });

  it('a reused --out never mixes runs: every file carries its run id, and an earlier run is moved aside, not lost', async () => {
    const out = mkdtempSync(join(tmpdir(), 'conformance-reused-out-'));
    const args = ['--rules', 'WS-1', '--depth', '1', '--reporter', 'json,junit,markdown', '--out', out];
    const first = await runCli(args);
    expect(first.code).toBe(0);
    const firstId = (
      JSON.parse(readFileSync(join(out, 'conformance-report.json'), 'utf8')) as { info: { runId: string } }
    ).info.runId;
    const second = await runCli(args);
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(/Files of an earlier run in .* moved to .*previous-runs/);
    const secondId = (
      JSON.parse(readFileSync(join(out, 'conformance-report.json'), 'utf8')) as { info: { runId: string } }
    ).info.runId;
    expect(secondId).not.toBe(firstId);
    for (const file of ['conformance-junit.xml', 'conformance-summary.md']) {
      expect(readFileSync(join(out, file), 'utf8')).toContain(secondId);
      expect(readFileSync(join(out, file), 'utf8')).not.toContain(firstId);
    }
    const [earlier] = readdirSync(join(out, 'previous-runs'));
    expect(
      readFileSync(join(out, 'previous-runs', earlier ?? '', 'conformance-report.json'), 'utf8'),
    ).toContain(firstId);
  });
});
