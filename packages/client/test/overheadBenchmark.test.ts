import { afterEach, describe, expect, test, vi } from 'vitest';

// The benchmark is a script, not a test: this only keeps it from rotting. With a handful of
// requests its figures mean nothing, so nothing here reads them beyond their shape.
describe('bench/overhead.ts', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  test('runs to the end with tiny settings and prints the goal ratio and, for information, the others', async () => {
    vi.stubEnv('BENCH_ROUNDS', '1');
    vi.stubEnv('BENCH_PER_ROUND', '4');
    vi.stubEnv('BENCH_WARMUP', '4');
    const printed: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => {
      printed.push(parts.join(' '));
    });
    await import('../bench/overhead.js');
    const output = printed.join('\n');
    expect(output).toMatch(
      /client \/ bare openapi-fetch \+ timeout = \d+\.\d{4}x {2}goal <= 1\.05x {2}(PASS|FAIL)/,
    );
    expect(output).toMatch(/client \/ bare openapi-fetch {11}= \d+\.\d{4}x {3}\(per round/);
    expect(output).toMatch(/client \/ raw fetch {20}= \d+\.\d{4}x {3}\(per round/);
    expect(output).not.toMatch(/goal <= 1\.(10|25)x/);
    expect(output).toMatch(/@cloud-api\/client \(preflight \+ create\) +\d+\.\d µs/);
  });
});
