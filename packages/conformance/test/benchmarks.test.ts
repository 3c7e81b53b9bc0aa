import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The benchmarks run here once, tiny, so they cannot rot: they must start, run a passing suite and
 * print their ratios. Their goals are read from a full run on a quiet machine (README), never
 * asserted in a timed test.
 */
function bench(script: string, env: Record<string, string>): { code: number | null; stdout: string } {
  const path = fileURLToPath(new URL(`../dist/bench/${script}`, import.meta.url));
  const result = spawnSync(process.execPath, [path], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    // About 35 s alone; several times that when the test run shares the machine.
    timeout: 290_000,
  });
  return { code: result.status, stdout: `${result.stdout}${result.stderr}` };
}

describe('benchmarks (smoke run)', () => {
  it('throughput: prints the suite/raw ratios of a passing run', { timeout: 300_000 }, () => {
    const { code, stdout } = bench('throughput.js', { BENCH_DEPTH: '2', BENCH_TRIALS: '1' });
    expect(stdout).toMatch(/ratio suite\/raw \(checks only\): \d+\.\d\d/);
    expect(stdout).toMatch(/ratio suite\/raw \(whole run\): +\d+\.\d\d/);
    expect(stdout).toMatch(/raw replays answered as the suite's requests were: \d+\.\d %/);
    expect(stdout).toMatch(
      /where the time goes .*: the suite's transport alone \d+\.\d\d, the suite's checks on a warm engine \d+\.\d\d, on a cold engine \d+\.\d\d; the suite's transport alone, cold, with no check at all: \d+\.\d\d$/m,
    );
    expect(stdout).toMatch(/rules: \d+ passed, 0 failed \(2 runs, depth 2\)/);
    expect(code).toBe(0);
  });

  it('latency: prints the checks/ideal ratio and keeps to the rate limit', { timeout: 300_000 }, () => {
    const { code, stdout } = bench('latency.js', {
      BENCH_DELAYS: '5',
      BENCH_DEPTH: '2',
      BENCH_RATE_LIMIT: '50',
    });
    expect(stdout).toMatch(/^5 ms +4 +\d+ +\d+\.\d +\d+\.\d +\d+\.\d +\d+\.\d\d +passed$/m);
    expect(stdout).toMatch(
      /rate limit 50\/s at concurrency 4: \d+ requests, busiest second \d+ arrivals — within the limit/,
    );
    expect(code).toBe(0);
  });
});
