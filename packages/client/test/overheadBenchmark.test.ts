import { afterEach, describe, expect, test, vi } from 'vitest';

// The benchmark is a script, not a test: this only keeps it from rotting. With a handful of
// requests its figures mean nothing, so nothing here reads them beyond their shape.
describe('bench/overhead.ts', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  test('runs to the end with tiny settings and prints both goal ratios and the breakdown', async () => {
    vi.stubEnv('BENCH_ROUNDS', '1');
    vi.stubEnv('BENCH_PER_ROUND', '4');
    vi.stubEnv('BENCH_WARMUP', '4');
    const printed: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => {
      printed.push(parts.join(' '));
    });
    await import('../bench/overhead.js');
    const output = printed.join('\n');
    expect(output).toMatch(/client \/ bare openapi-fetch = \d+\.\d{4}x {2}goal <= 1\.10x {2}(PASS|FAIL)/);
    expect(output).toMatch(/client \/ raw fetch {10}= \d+\.\d{4}x {2}goal <= 1\.25x {2}(PASS|FAIL)/);
    expect(output).toMatch(/a per-request AbortSignal .* of raw/);
    expect(output).toMatch(/@cloud-api\/client \(preflight \+ create\) +\d+\.\d µs/);
  });
});
